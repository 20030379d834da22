#pragma once
/// Usage errors as the field reports them: exit status 2 (exit_codes.hpp) with CLI11's message,
/// and for a mistyped subcommand or option the closest name ("did you mean 'info'?"), as git,
/// cargo and Python's argparse (3.12's suggest_on_error) do.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace spmvlab {

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// adjacent characters each count 1 ("fromat" -> "format": 1, "infoo" -> "info": 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

struct Suggestion {
    std::string name;           ///< the closest candidate; empty when there are none
    std::size_t distance = 0;   ///< its edit distance (0 for a prefix of it: "con" -> "convert")
    bool close = false;         ///< a likely typo: distance <= max(1, length / 3), or a prefix
};

/// The candidate closest to `word` (the first of equals, in the order given). A word that is a
/// unique prefix of a candidate ("gen") suggests it with distance 0.
Suggestion closest(std::string_view word, const std::vector<std::string>& candidates);

/// Prints the message of a parse error on stderr and returns the exit status: 0 for --help and
/// --version (CLI11 prints them), exit_status::usage (2) for every usage error, with CLI11's
/// message, "spmvlab: 'X' is not a command of spmvlab; did you mean 'Y'?" for an unknown
/// subcommand (CLI11 alone says only "A subcommand is required") and "did you mean '--format'?"
/// under an unknown option.
int report_parse_error(CLI::App& app, const CLI::ParseError& e);

}  // namespace spmvlab
