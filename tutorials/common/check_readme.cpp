// Keeps a lesson's README honest (registered as the CTest test tutorial_NN_topic_readme):
//  1. the sections of STYLE.md §5.8 are there, in order;
//  2. every ```cpp block is quoted verbatim from main.cpp (or from another of the lesson's
//     sources given after output_if, e.g. the solution.cpp of a lesson with an exercise) and
//     starts at a `// [section: ...]` line;
//  3. the first fenced block under "## Expected output" is exactly what the lesson prints.
// Usage: tutorial_check_readme README.md main.cpp <lesson executable> [output_if [source.cpp...]]
// With a non-empty output_if, step 3 runs only when the output contains that text (lesson 07:
// timings measured on a GPU differ from run to run, the model-only output does not).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_file(const char* path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string run(const std::string& exe)
{
    std::string out;
    if (FILE* p = popen(("'" + exe + "'").c_str(), "r")) {
        char buf[4096];
        for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) {
            out.append(buf, n);
        }
        pclose(p);
    }
    return out;
}

/// Contents of the fenced blocks opened by a line "```<lang>", from `from` on.
std::vector<std::string> fenced_blocks(const std::string& text, const std::string& lang,
                                       std::size_t from = 0)
{
    std::vector<std::string> blocks;
    for (auto at = text.find("```" + lang + "\n", from); at != std::string::npos;
         at = text.find("```" + lang + "\n", at)) {
        const auto begin = text.find('\n', at) + 1;
        const auto end = text.find("\n```", begin - 1);
        if (end == std::string::npos) break;
        blocks.push_back(text.substr(begin, end + 1 - begin));
        at = end + 4;
    }
    return blocks;
}

int failures = 0;
void expect(bool ok, const std::string& what)
{
    std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what.c_str());
    failures += ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::printf("usage: %s README.md main.cpp lesson-exe [output_if [source.cpp...]]: FAIL\n",
                    argv[0]);
        return 2;
    }
    const std::string readme = read_file(argv[1]);
    // main.cpp, then the lesson's other quoted sources; "main.cpp or solution.cpp" in messages
    const auto file_name = [](const std::string& path) { return path.substr(path.rfind('/') + 1); };
    std::vector<std::string> sources = {read_file(argv[2])};
    std::string source_names = file_name(argv[2]);
    for (int k = 5; k < argc; ++k) {
        sources.push_back(read_file(argv[k]));
        source_names += " or " + file_name(argv[k]);
    }
    const std::string output_if = argc > 4 ? argv[4] : "";

    std::size_t last = 0;
    for (const char* h : {"## What you will learn", "## Builds on", "## Run it",
                          "## Expected output", "## Try this"}) {
        const auto at = readme.find(std::string("\n") + h);
        expect(at != std::string::npos && at >= last, std::string("section \"") + h + "\"");
        last = at == std::string::npos ? last : at;
    }

    const auto quotes = fenced_blocks(readme, "cpp");
    expect(!quotes.empty(), "README quotes " + source_names);
    for (const auto& q : quotes) {
        const auto indent = q.find_first_not_of(' ');
        const auto first_line = q.substr(indent, q.find('\n') - indent);
        bool found = false;
        for (const auto& source : sources) {
            found = found || source.find(q) != std::string::npos;
        }
        expect(first_line.find("// [section: ") != std::string::npos && found,
               "quote " + first_line + " is verbatim in " + source_names);
    }

    const auto expected_at = readme.find("\n## Expected output");
    const auto expected =
        fenced_blocks(readme, "text", expected_at == std::string::npos ? 0 : expected_at);
    const std::string output = run(argv[3]);
    if (!output_if.empty() && output.find(output_if) == std::string::npos) {
        std::printf("  [skip] output not compared: it does not contain \"%s\"\n",
                    output_if.c_str());
    } else if (expected.empty() || expected_at == std::string::npos) {
        expect(false, "README has an expected-output block");
    } else if (expected[0] == output) {
        expect(true, "expected output matches the program's output");
    } else {
        std::istringstream e(expected[0]), o(output);
        std::string le, lo;
        int line = 1;
        while (std::getline(e, le) && std::getline(o, lo) && le == lo) ++line;
        expect(false, "expected output differs from the program's at line " +
                          std::to_string(line) + ":\n    README:  " + le + "\n    program: " + lo);
    }
    if (failures == 0) {
        std::printf("README OK\n");
    } else {
        std::printf("README check: %d problem(s), FAIL\n", failures);
    }
    return failures == 0 ? 0 : 1;
}
