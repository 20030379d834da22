// spmvlab --man: the man page spmvlab(1), written from the App tree that --help prints (one
// source of truth; the field's help2man does the same from --help text, which we do not need).
#include "man_page.hpp"

#include <cstdio>

#include <spmv/version.hpp>

#include "exit_codes.hpp"

namespace spmvlab {
namespace {

/// Text for roff: backslashes escaped, '-' as \- (a real minus, so `--json` copies as typed),
/// a line that would start with '.' or '\'' protected by \&.
std::string roff(const std::string& text)
{
    std::string out;
    bool line_start = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (line_start && (c == '.' || c == '\'')) {
            out += "\\&";
        }
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else if (byte >= 0x80) {
            // UTF-8 (sigma, the minus sign, arrows in the help texts) as groff's \[uXXXX]
            const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
            unsigned code = byte & (0x3Fu >> extra);
            for (int k = 0; k < extra && i + 1 < text.size(); ++k) {
                code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3Fu);
            }
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\[u%04X]", code);
            out += buf;
        } else {
            out += c;
        }
        line_start = c == '\n';
    }
    return out;
}

std::vector<const CLI::App*> visible_commands(const CLI::App& app)
{
    return app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
}

std::vector<const CLI::Option*> visible_options(const CLI::App& app)
{
    return app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); });
}

bool is_flag(const CLI::Option& o)
{
    return o.get_items_expected_max() == 0;
}

/// "\fB\-o\fR, \fB\-\-output\fR \fITEXT\fR" or "\fIin\fR ..." for a positional
std::string option_head(const CLI::Option& o)
{
    std::string head;
    if (!o.nonpositional()) {
        head = "\\fI" + roff(o.get_name()) + "\\fR";
    } else {
        for (const auto& s : o.get_snames()) {
            head += (head.empty() ? "" : ", ") + std::string("\\fB\\-") + roff(s) + "\\fR";
        }
        for (const auto& l : o.get_lnames()) {
            head += (head.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(l) + "\\fR";
        }
        if (!is_flag(o)) {
            head += " \\fI" + roff(o.get_type_name()) + "\\fR";
        }
    }
    if (o.get_items_expected_max() > 1) {
        head += " ...";
    }
    return head;
}

void options_section(std::string& out, const CLI::App& app)
{
    for (const CLI::Option* o : visible_options(app)) {
        if (app.get_parent() != nullptr && o->check_lname("help")) {
            continue;  // said once, under OPTIONS
        }
        out += ".TP\n" + option_head(*o) + "\n";
        std::string text = o->get_description();
        if (!o->nonpositional() && o->get_type_name() != "TEXT" && !o->get_type_name().empty()) {
            text += " (" + o->get_type_name() + ")";
        }
        if (o->get_required()) {
            text += " (required)";
        }
        if (!is_flag(*o) && !o->get_default_str().empty()) {
            text += " (default: " + o->get_default_str() + ")";
        }
        out += roff(text) + "\n";
    }
}

std::string command_path(const CLI::App& app)
{
    std::string path = app.get_name();
    for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent()) {
        path = p->get_name() + " " + path;
    }
    return path;
}

/// "spmvlab generate pde [OPTIONS]" with the positionals and the required options named
std::string synopsis(const CLI::App& app)
{
    std::string s = "\\fB" + roff(command_path(app)) + "\\fR";
    if (!visible_commands(app).empty()) {
        s += " \\fICOMMAND\\fR";
    }
    bool optional = false;
    for (const CLI::Option* o : visible_options(app)) {
        if (!o->nonpositional()) {
            const std::string p = "\\fI" + roff(o->get_name()) + "\\fR" +
                                  (o->get_items_expected_max() > 1 ? " ..." : "");
            s += o->get_required() ? " " + p : " [" + p + "]";
        } else if (o->get_required()) {
            s += " " + option_head(*o);
        } else {
            optional = true;
        }
    }
    return optional ? s + " [\\fIOPTIONS\\fR]" : s;
}

void command_sections(std::string& out, const CLI::App& app)
{
    for (const CLI::App* sub : visible_commands(app)) {
        out += ".SS \"" + roff(command_path(*sub)) + "\"\n";
        out += synopsis(*sub) + "\n.PP\n" + roff(sub->get_description()) + "\n";
        if (const auto subs = visible_commands(*sub); !subs.empty()) {
            out += ".PP\nCommands:";
            for (const CLI::App* c : subs) {
                out += " \\fB" + roff(c->get_name()) + "\\fR";
            }
            out += " (each below).\n";
        }
        options_section(out, *sub);
        command_sections(out, *sub);
    }
}

}  // namespace

std::string man_page(const CLI::App& app)
{
    std::string out;
    out += ".\\\" spmvlab(1), generated by `spmvlab --man` from the command line's own\n";
    out += ".\\\" definition (cli/src/man_page.cpp); do not edit: rebuild instead.\n";
    out += ".TH SPMVLAB 1 \"\" \"spmvlab " + std::string(SPMV_VERSION_STRING) +
           "\" \"User Commands\"\n";
    out += ".SH NAME\nspmvlab \\- sparse matrix storage formats on GPUs: statistics, formats, "
           "performance model, benchmarks, solvers\n";
    out += ".SH SYNOPSIS\n" + synopsis(app) + "\n";
    out += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n.PP\n";
    out += "Every command takes \\fB\\-\\-help\\fR. An input may be a Matrix Market file (also "
           "compressed or a SuiteSparse archive), \\fB\\-\\fR for the standard input, or a "
           "generator spec "
           "\\fBgen:\\fR\\fINAME\\fR[\\fB:\\fR\\fIkey\\fR\\fB=\\fR\\fIvalue\\fR,...]. "
           "An output path \\fB\\-\\fR is the standard output (the command's own report then "
           "goes to the standard error).\n";
    out += ".SH OPTIONS\n";
    options_section(out, app);
    out += ".SH COMMANDS\n";
    command_sections(out, app);
    out += ".SH EXIT STATUS\n";
    for (const auto& m : exit_status::meanings) {
        out += ".TP\n.B " + std::to_string(m.code) + "\n" + roff(m.text) + "\n";
    }
    out += ".TP\n.B 128 + N\nkilled by signal N (Ctrl\\-C: 130); half\\-written outputs are "
           "removed.\n";
    out += ".SH ENVIRONMENT\n.TP\n.B SPMVLAB_DEBUG\n" +
           roff("1 keeps the C++ source locations in error messages.") + "\n";
    out += ".SH FILES\n.TP\n.I ~/.cache/spmvlab\n" +
           roff("the cache of `spmvlab fetch` (--cache DIR to choose another).") + "\n";
    out += ".SH SEE ALSO\n" +
           roff("spmvlab-gui (the explorer); README.md, docs/output-schema.md (the JSON records "
                "and the exit codes) and docs/install.md, in the source tree or "
                "share/doc/spmvlab.") +
           "\n";
    return out;
}

}  // namespace spmvlab
