// issue 35, item 5: spmvlab follows the command line's conventions. Usage errors exit 2 with
// CLI11's message and a suggestion for a mistyped command or option; "offline" (5) and "did not
// converge" (4) have codes of their own (cli/src/exit_codes.hpp); "-" as an output path is the
// standard output; integer options are typed INT and checked while parsing; the man page and the
// bash / zsh completions are generated from the App tree and cover every command.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <spmv/generators.hpp>

#include "cli_run.hpp"
#include "exit_codes.hpp"
#include "suggest.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using spmv::test::Run;
using spmv::test::sample;
using spmv::test::shell;
using spmv::test::slurp;
using spmv::test::tmp;
namespace status = spmvlab::exit_status;

namespace {

/// spmvlab with `args` (spmv::test::spmvlab; the name is taken by the namespace here)
Run cli(const std::string& args, bool with_stderr = true)
{
    return spmv::test::spmvlab(args, with_stderr);
}

bool contains(const std::string& text, const std::string& what)
{
    return text.find(what) != std::string::npos;
}

/// The names under "SUBCOMMANDS:" of a --help text (CLI11's layout: two spaces, the name, the
/// description), the independent list the man page and the completion are checked against.
std::vector<std::string> help_subcommands(const std::string& help)
{
    std::vector<std::string> names;
    std::istringstream in(help);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line == "Subcommands:" || line == "SUBCOMMANDS:") {
            inside = true;
            continue;
        }
        if (inside) {
            if (line.size() < 3 || line.compare(0, 2, "  ") != 0 || line[2] == ' ') {
                if (line.empty()) {
                    continue;
                }
                break;
            }
            names.push_back(line.substr(2, line.find(' ', 2) - 2));
        }
    }
    return names;
}

/// Every command path ("info", "generate pde", "dist solve") as --help lists them
std::vector<std::string> all_command_paths(const std::string& prefix = "")
{
    std::vector<std::string> paths;
    const auto help = cli(prefix + " --help", false);
    REQUIRE(help.status == 0);
    for (const auto& name : help_subcommands(help.out)) {
        const std::string path = prefix.empty() ? name : prefix + " " + name;
        paths.push_back(path);
        for (auto& p : all_command_paths(path)) {
            paths.push_back(std::move(p));
        }
    }
    return paths;
}

}  // namespace

TEST_CASE("edit distance and the closest name", "[cli][conventions]")
{
    using spmvlab::closest;
    using spmvlab::edit_distance;
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("info", "info") == 0);
    CHECK(edit_distance("infoo", "info") == 1);     // one insertion
    CHECK(edit_distance("fromat", "format") == 1);  // one adjacent swap (OSA)
    CHECK(edit_distance("kitten", "sitting") == 3);  // the textbook Levenshtein example
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("ca", "abc") == 3);  // OSA (not full Damerau, which gives 2)

    const std::vector<std::string> commands{"info", "formats", "convert", "calibrate", "solve"};
    auto s = closest("infoo", commands);
    CHECK(s.name == "info");
    CHECK(s.distance == 1);
    CHECK(s.close);
    s = closest("con", commands);  // a unique prefix
    CHECK(s.name == "convert");
    CHECK(s.distance == 0);
    CHECK(s.close);
    s = closest("slove", commands);
    CHECK(s.name == "solve");
    CHECK(s.close);
    s = closest("zzzzzzzzzzzz", commands);  // the closest, but not a likely typo
    CHECK(!s.name.empty());
    CHECK(!s.close);
    CHECK(closest("x", {}).name.empty());
}

TEST_CASE("usage errors exit 2 with CLI11's message and a suggestion", "[cli][conventions]")
{
    // the bar of issue 35: an unknown command exits 2 and suggests one
    auto r = cli("frobnicate");
    INFO(r.out);
    CHECK(r.status == status::usage);
    CHECK(r.status == 2);
    CHECK(contains(r.out, "'frobnicate' is not a command of 'spmvlab'; did you mean '"));
    CHECK(contains(r.out, "The commands: info, formats"));

    r = cli("infoo " + sample("canonical4.mtx"));
    INFO(r.out);
    CHECK(r.status == 2);
    CHECK(contains(r.out, "did you mean 'info'?"));
    CHECK(!contains(r.out, "A subcommand is required"));  // not CLI11's only words any more

    r = cli("solve gen:pde:size=4 --fromat csr");
    INFO(r.out);
    CHECK(r.status == 2);
    CHECK(contains(r.out, "were not expected: csr --fromat"));  // CLI11's message
    CHECK(contains(r.out, "did you mean '--format'?"));

    r = cli("bench " + sample("canonical4.mtx") + " --json-ot x.json");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "did you mean '--json-out'?"));

    // nested commands: the level typed is the one searched
    r = cli("generate pdee -o x.mtx");
    INFO(r.out);
    CHECK(r.status == 2);
    CHECK(contains(r.out, "'pdee' is not a command of 'spmvlab generate'; did you mean 'pde'?"));
    r = cli("dist slove gen:pde:size=4");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "did you mean 'solve'?"));
    r = cli("--verison");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "did you mean '--version'?"));

    // no command at all: CLI11's message and what can follow
    r = cli("");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "A subcommand is required"));
    CHECK(contains(r.out, "The commands of 'spmvlab': info, formats"));

    // the other usage errors (CLI11 gave 104-114): all 2
    CHECK(cli("info").status == 2);                                              // required
    CHECK(cli("info " + sample("canonical4.mtx") + " --bins x").status == 2);    // type
    CHECK(cli("info " + sample("canonical4.mtx") + " --bins -3").status == 2);   // range
    CHECK(cli("info " + sample("canonical4.mtx") + " --bins").status == 2);      // no value
    CHECK(cli("--max-memory lots info " + sample("canonical4.mtx")).status == 2);
    CHECK(cli("solve gen:pde:size=4 --outer sideways").status == 2);  // not in the set
    // --help and --version stay 0, on the standard output
    r = cli("--version", false);
    CHECK(r.status == 0);
    CHECK(contains(r.out, "spmvlab "));
    CHECK(cli("dist solve --help", false).status == 0);
    // an error in the input is not a usage error
    CHECK(cli("info " + tmp("missing.mtx")).status == status::error);
}

TEST_CASE("the verdict codes: mismatch 3, no convergence 4, offline 5", "[cli][conventions]")
{
    // the table of exit_codes.hpp (the README's and docs/output-schema.md's)
    STATIC_REQUIRE(status::ok == 0);
    STATIC_REQUIRE(status::error == 1);
    STATIC_REQUIRE(status::usage == 2);
    STATIC_REQUIRE(status::mismatch == 3);
    STATIC_REQUIRE(status::no_convergence == 4);
    STATIC_REQUIRE(status::offline == 5);
    std::set<int> codes;
    for (const auto& m : status::meanings) {
        codes.insert(m.code);
    }
    CHECK(codes == std::set<int>{0, 1, 2, 3, 4, 5});  // documented once each

    // CG on pde with 3 iterations cannot reach 1e-10: exit 4, the record still printed
    auto r = cli("solve gen:pde:size=6 --maxit 3 --json", false);
    CHECK(r.status == status::no_convergence);
    CHECK(nlohmann::json::parse(r.out)["status"] == "max_iterations");
    r = cli("dist solve gen:pde:size=6 --maxit 3");
    INFO(r.out);
    CHECK(r.status == status::no_convergence);

    // fetch from a port nobody listens on: offline, 5 (tests/cli/test_cli_io.cpp checks the
    // message against a real loopback server too)
    r = cli("fetch HB/bcsstk01 --cache " + tmp("fetch_offline") +
                " --base-url http://127.0.0.1:9 --timeout 5");
    INFO(r.out);
    CHECK(r.status == status::offline);
}

TEST_CASE("integer options are typed INT and checked while parsing", "[cli][conventions]")
{
    // every generator parameter: INT when it must be whole, FLOAT otherwise, as the registry says
    for (const auto& g : spmv::gen::generators()) {
        const auto help = cli("generate " + std::string(g.name) + " --help", false);
        REQUIRE(help.status == 0);
        for (const auto& p : g.params) {
            const std::string option = "--" + std::string(p.name) + (p.integer ? " INT" : " FLOAT");
            INFO(g.name << ": " << help.out);
            CHECK(contains(help.out, option));
        }
    }
    auto r = cli("generate pde --help", false);
    CHECK(contains(r.out, "--size INT=20"));
    CHECK(!contains(r.out, "FLOAT"));

    // out of range, not whole: usage errors (2) naming the option and the bounds
    r = cli("generate pde --size 1000 -o " + tmp("big.mtx"));
    CHECK(r.status == 2);
    CHECK(contains(r.out, "--size: '1000' is outside [1, 674]"));
    CHECK(!fs::exists(tmp("big.mtx")));
    r = cli("generate pde --size 2.5 -o " + tmp("half.mtx"));
    CHECK(r.status == 2);
    CHECK(contains(r.out, "--size: '2.5' is not a whole number"));
    r = cli("generate pde --size ten -o " + tmp("ten.mtx"));
    CHECK(r.status == 2);
    CHECK(contains(r.out, "'ten' is not a whole number"));
    // the format parameters' registry ranges, at parse time too
    r = cli("formats " + sample("canonical4.mtx") + " --warp 0");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "--warp: '0' is outside [1, "));
    CHECK(cli("formats " + sample("canonical4.mtx") + " --sigma auto --json", false).status == 0);
    CHECK(cli("formats " + sample("canonical4.mtx") + " --sigma -1").status == 2);

    // no option anywhere shows FLOAT for a count: --help of every command
    for (const auto& path : all_command_paths()) {
        r = cli(path + " --help", false);
        for (const char* count : {"--size FLOAT", "--rows FLOAT", "--n FLOAT", "--bins FLOAT",
                                  "--maxit FLOAT", "--ranks FLOAT", "--seed FLOAT"}) {
            INFO(path << ": " << count);
            CHECK(!contains(r.out, count));
        }
    }
}

TEST_CASE("an output path \"-\" is the standard output", "[cli][conventions]")
{
    const std::string a = sample("canonical4.mtx");
    // the bar: convert A.mtx - writes the matrix to stdout, the same bytes as to a file
    const fs::path file = tmp("conv.mtx");
    REQUIRE(cli("convert " + a + " " + file.string()).status == 0);
    auto r = cli("convert " + a + " -", false);
    REQUIRE(r.status == 0);
    CHECK(r.out == slurp(file));
    CHECK(r.out.rfind("%%MatrixMarket matrix coordinate real general\n", 0) == 0);
    CHECK(contains(r.out, "\n4 4 9\n"));
    CHECK(!fs::exists("-"));
    // into a file through the shell's redirection: the matrix alone, the report on stderr
    const fs::path redirected = tmp("conv_redirected.mtx");
    r = shell(std::string(SPMVLAB_EXE) + " convert " + a + " - 2>&1 > " + redirected.string());
    CHECK(r.status == 0);
    CHECK(contains(r.out, "-> standard output: 4 x 4, 9 entries"));
    CHECK(slurp(redirected) == slurp(file));

    // generate -o - and reorder --out -: the same text as their files
    REQUIRE(cli("generate pde --size 3 -o " + tmp("pde3.mtx")).status == 0);
    r = cli("generate pde --size 3 -o -", false);
    CHECK(r.status == 0);
    CHECK(r.out == slurp(tmp("pde3.mtx")));
    REQUIRE(cli("reorder " + a + " --out " + tmp("rcm.mtx")).status == 0);
    r = cli("reorder " + a + " --out -", false);
    CHECK(r.status == 0);
    CHECK(r.out == slurp(tmp("rcm.mtx")));

    // a JSON record on stdout while the table goes to stderr: stdout parses as the record even
    // redirected into a regular file (a second descriptor opened on /dev/stdout would have
    // overwritten the table from offset 0)
    const fs::path rec = tmp("bench_stdout.json");
    r = shell(std::string(SPMVLAB_EXE) + " bench " + a + " --formats csr,ell --min-time 1 " +
              "--json-out - > " + rec.string() + " 2>/dev/null");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(slurp(rec));
    CHECK(j["results"].size() == 2);
    CHECK(!fs::exists(rec.string() + ".partial"));
    r = cli("bench " + a + " --formats csr --min-time 1 --csv-out -", false);
    CHECK(r.status == 0);
    CHECK(r.out.rfind("matrix,rows,cols,nnz,format,", 0) == 0);

    // one standard output: two "-" outputs, or "-" beside --json, are usage errors
    r = cli("bench " + a + " --json-out - --csv-out -");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "only one output can be the standard output"));
    r = cli("convert " + a + " - --json");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "would both write to the standard output"));
    // a prefix of several files cannot be "-"
    r = cli("dist plan gen:pde:size=4 --ranks 2 --timeline -");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "--timeline: names several files"));
    CHECK(!fs::exists("-.json"));
    r = cli("plot " + a + " -o -");  // a directory of figures
    CHECK(r.status == 2);
    CHECK(contains(r.out, "--output: names several files"));
    CHECK(!fs::exists("-"));
    // dist plan's record on stdout, its table on stderr
    r = cli("dist plan gen:pde:size=4 --ranks 2 --json-out -", false);
    REQUIRE(r.status == 0);
    CHECK(nlohmann::json::parse(r.out)["per_rank"].size() == 2);
}

TEST_CASE("the man page lists every command and option", "[cli][conventions]")
{
    const auto man = cli("--man", false);
    REQUIRE(man.status == 0);
    CHECK(man.out.rfind(".\\\"", 0) == 0);
    CHECK(contains(man.out, ".TH SPMVLAB 1 "));
    for (const char* section : {".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS",
                                ".SH COMMANDS", ".SH EXIT STATUS", ".SH SEE ALSO"}) {
        CHECK(contains(man.out, section));
    }
    const auto paths = all_command_paths();
    CHECK(paths.size() >= 17 + 6);  // 17 commands, dist's 6, generate's generators
    for (const auto& path : paths) {
        INFO(path);
        CHECK(contains(man.out, ".SS \"spmvlab " + path + "\"\n"));
    }
    // options with their types; exit statuses from exit_codes.hpp
    CHECK(contains(man.out, "\\fB\\-\\-size\\fR \\fIINT\\fR"));
    CHECK(contains(man.out, "\\fB\\-\\-json\\-out\\fR"));
    for (const auto& m : status::meanings) {
        CHECK(contains(man.out, ".B " + std::to_string(m.code) + "\n"));
    }
    // what the build installs is this page
    CHECK(slurp(SPMVLAB_DOCS_DIR "/spmvlab.1") == man.out);
    // groff reads it without a warning (where groff is installed)
    if (shell("command -v groff >/dev/null 2>&1").status == 0) {
        const auto g = shell("groff -man -Tutf8 -ww -z " SPMVLAB_DOCS_DIR "/spmvlab.1 2>&1");
        INFO(g.out);
        CHECK(g.status == 0);
        CHECK(g.out.empty());
    } else {
        WARN("groff not installed: the man page's roff is not rendered here");
    }
}

TEST_CASE("bash and zsh completions from the command tree", "[cli][conventions]")
{
    const std::string bash_file = SPMVLAB_DOCS_DIR "/spmvlab.bash";
    const std::string zsh_file = SPMVLAB_DOCS_DIR "/_spmvlab";
    CHECK(slurp(bash_file) == cli("--completion bash", false).out);
    CHECK(slurp(zsh_file) == cli("--completion zsh", false).out);
    CHECK(cli("--completion fish").status == 1);

    // what bash offers after the words typed (COMP_WORDS / COMP_CWORD as readline sets them)
    const auto complete = [&](const std::string& words, int cword) {
        const auto r = shell("bash -c 'source " + bash_file + " && COMP_WORDS=(" + words +
                             ") && COMP_CWORD=" + std::to_string(cword) +
                             " && _spmvlab && echo \"[${COMPREPLY[*]}]\"' 2>&1");
        INFO(r.out);
        CHECK(r.status == 0);
        return r.out;
    };
    const auto registered = shell("bash -c 'source " + bash_file + " && complete -p spmvlab'");
    CHECK(registered.status == 0);
    CHECK(contains(registered.out, "-F _spmvlab spmvlab"));
    CHECK(complete("spmvlab con", 1) == "[convert]\n");
    CHECK(complete("spmvlab \"\"", 1).size() > 100);  // every command
    CHECK(complete("spmvlab dist s", 2) == "[solve]\n");
    CHECK(complete("spmvlab generate pd", 2) == "[pde]\n");
    CHECK(complete("spmvlab solve A.mtx --out", 3) == "[--outer]\n");
    CHECK(complete("spmvlab solve A.mtx --outer \"\"", 4) == "[richardson pcg]\n");
    CHECK(complete("spmvlab --max-memory 2G in", 3) == "[info]\n");  // a value is skipped
    CHECK(complete("spmvlab info A.mtx --b", 3) == "[--bins]\n");
    // every command of --help is offered at its level
    const auto top = complete("spmvlab \"\"", 1);
    for (const auto& path : all_command_paths()) {
        if (path.find(' ') == std::string::npos) {
            CHECK(contains(top, path));
        }
    }

    if (shell("command -v zsh >/dev/null 2>&1").status == 0) {
        CHECK(shell("zsh -n " + zsh_file).status == 0);
    } else {
        WARN("zsh not installed: _spmvlab is generated and installed but not run here");
        const auto z = slurp(zsh_file);
        CHECK(z.rfind("#compdef spmvlab\n", 0) == 0);
        CHECK(contains(z, "'generate pde|-o') return 0 ;;"));
    }
}
