#include "suggest.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "exit_codes.hpp"

namespace spmvlab {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    // rows i-2, i-1 and i of the table d[i][j] = distance of a[:i] and b[:j]
    const std::size_t m = b.size();
    std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
    for (std::size_t j = 0; j <= m; ++j) {
        prev[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                cur[j] = std::min(cur[j], prev2[j - 2] + 1);  // adjacent swap
            }
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[m];
}

Suggestion closest(std::string_view word, const std::vector<std::string>& candidates)
{
    Suggestion s;
    if (candidates.empty()) {
        return s;
    }
    // a unique prefix ("con" -> convert) is what the user started to type
    std::vector<const std::string*> prefixed;
    for (const auto& c : candidates) {
        if (!word.empty() && c.size() > word.size() && c.compare(0, word.size(), word) == 0) {
            prefixed.push_back(&c);
        }
    }
    if (prefixed.size() == 1) {
        return {*prefixed.front(), 0, true};
    }
    s.distance = static_cast<std::size_t>(-1);
    for (const auto& c : candidates) {
        const auto d = edit_distance(word, c);
        if (d < s.distance) {
            s.name = c;
            s.distance = d;
        }
    }
    const std::size_t n = word.size();
    s.close = s.distance <= (n <= 3 ? std::size_t{1} : std::max<std::size_t>(2, n / 3));
    return s;
}

namespace {

/// "spmvlab", "spmvlab generate", ...
std::string command_path(const CLI::App* app)
{
    std::string path = app->get_name();
    for (const CLI::App* p = app->get_parent(); p != nullptr; p = p->get_parent()) {
        path = p->get_name() + " " + path;
    }
    return path;
}

/// The visible subcommands of `app` (an empty group hides one).
std::vector<std::string> command_names(CLI::App* app)
{
    std::vector<std::string> names;
    const auto visible = [](CLI::App* s) { return !s->get_group().empty(); };
    for (const CLI::App* s : app->get_subcommands(visible)) {
        names.push_back(s->get_name());
    }
    return names;
}

/// The option names `app` takes ("--format", "-o", "--help"), hidden ones left out.
std::vector<std::string> option_names(const CLI::App* app)
{
    std::vector<std::string> names;
    for (const CLI::Option* o : app->get_options()) {
        if (o->get_group().empty()) {
            continue;
        }
        for (const auto& l : o->get_lnames()) {
            names.push_back("--" + l);
        }
        for (const auto& s : o->get_snames()) {
            names.push_back("-" + s);
        }
    }
    return names;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names) {
        s += (s.empty() ? "" : ", ") + n;
    }
    return s;
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& e)
{
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
        return app.exit(e);  // --help, --help-all, --version: printed on stdout, status 0
    }
    // the subcommands selected so far, outermost first
    std::vector<CLI::App*> chain{&app};
    while (!chain.back()->get_subcommands().empty()) {
        chain.push_back(chain.back()->get_subcommands().back());
    }
    // CLI11 leaves a token that no app took with the outermost app that saw it (a subcommand
    // with no positionals hands an unknown word up), so every token left over is taken as
    // meant for the innermost command selected
    CLI::App* last = chain.back();
    std::vector<std::string> tokens;
    for (const CLI::App* a : chain) {
        for (auto& t : a->remaining(false)) {
            tokens.push_back(std::move(t));
        }
    }
    const auto names = command_names(last);
    const bool needs_command = !names.empty() && last->get_subcommands().empty();
    std::string notes;
    bool unknown_command = false;
    for (const auto& token : tokens) {
        if (token.size() > 1 && token[0] == '-' && token != "--") {
            if (unknown_command || token[1] != '-') {
                continue;  // the options of an unknown command; "-o" is one letter from many
            }
            const std::string name = token.substr(0, token.find('='));
            // the command's own options first, then those of the commands around it
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                const auto s = closest(name, option_names(*it));
                if (s.close) {
                    notes += "spmvlab: unknown option '" + name + "' of '" + command_path(last) +
                             "'; did you mean '" + s.name + "'" +
                             (*it == last ? "" : " (an option of '" + command_path(*it) + "')") +
                             "?\n";
                    break;
                }
            }
        } else if (needs_command && !unknown_command) {
            unknown_command = true;
            const auto s = closest(token, names);
            notes += "spmvlab: '" + token + "' is not a command of '" + command_path(last) +
                     "'; did you mean '" + s.name + "'?\n";
            if (!s.close) {
                notes += "The commands: " + joined(names) + "\n";
            }
        }
    }
    if (needs_command && !unknown_command) {  // `spmvlab`, `spmvlab dist`: what can follow
        notes += "The commands of '" + command_path(last) + "': " + joined(names) + "\n";
    }
    // "A subcommand is required" says nothing useful when the user typed one that is unknown
    const bool replaced = unknown_command && e.get_name() == "RequiredError";
    if (!replaced) {
        std::cerr << "spmvlab: error: " << e.what() << "\n";
    }
    std::cerr << notes << "Run '" << command_path(chain.back()) << " --help' for more information."
              << std::endl;
    return exit_status::usage;
}

}  // namespace spmvlab
