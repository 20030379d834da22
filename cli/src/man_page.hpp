#pragma once
/// Documents generated from the command line itself (the CLI11 App tree that `--help` prints),
/// so they cannot fall out of step with it: the man page spmvlab(1) and the bash and zsh
/// completion scripts. The build runs `spmvlab --man` and `spmvlab --completion bash|zsh` and
/// installs the results (cli/CMakeLists.txt); help2man is not needed.
#include <string>

#include <CLI/CLI.hpp>

namespace spmvlab {

/// spmvlab.1 in roff (man(7) macros): NAME, SYNOPSIS, DESCRIPTION, the global OPTIONS, one
/// subsection per command and subcommand (e.g. "spmvlab generate pde", "spmvlab dist solve")
/// with every visible option (type, default, required), EXIT STATUS (exit_codes.hpp),
/// ENVIRONMENT, FILES and SEE ALSO.
std::string man_page(const CLI::App& app);

/// A completion script for `shell` ("bash" or "zsh"): subcommands at each level, the options of
/// the command being typed, the choices of options that have a fixed set ({cg,jacobi-cg,...}),
/// file names elsewhere. Throws spmv::InvalidArgument for another shell.
std::string completion_script(const CLI::App& app, const std::string& shell);

}  // namespace spmvlab
