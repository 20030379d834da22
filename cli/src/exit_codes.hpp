#pragma once
/// The exit statuses of `spmvlab`, in one place. The table users read is in docs/output-schema.md
/// ("Exit codes") and README.md; keep the three in step.
///
/// The conventions followed: 0 success, 1 an error, 2 a usage error (as Python's argparse, GNU
/// getopt-based tools and BSD's sysexits-era shells report a bad command line), and distinct
/// small codes for verdicts a script branches on. 128 + N is the shell's "killed by signal N".
namespace spmvlab::exit_status {

/// Success (also `--help`, `--version`).
inline constexpr int ok = 0;
/// An error: bad input (named with file and line), unknown format, a failed write, out of
/// memory, `--gpu` without CUDA or a device; with several inputs, one or more failed.
inline constexpr int error = 1;
/// A usage error: unknown subcommand or option, a missing or malformed argument, a value out of
/// range. The message names the option and, for a near miss, suggests the intended name.
inline constexpr int usage = 2;
/// `verify` / `dist verify`: a result does not match the reference.
inline constexpr int mismatch = 3;
/// `solve` / `dist solve`: breakdown, divergence or the iteration limit (the record is written).
inline constexpr int no_convergence = 4;
/// `fetch`: the server or mirror could not be reached (offline); nothing was downloaded.
inline constexpr int offline = 5;

/// The table above for generated documentation (`spmvlab --man`'s EXIT STATUS section).
struct Meaning {
    int code;
    const char* text;
};
inline constexpr Meaning meanings[] = {
    {ok, "success (also --help, --version)"},
    {error, "an error: bad input (named with file and line), unknown format, a failed write, out "
            "of memory, --gpu without CUDA or a device; with several inputs, one or more failed"},
    {usage, "a usage error: unknown command or option (the closest name is suggested), a missing "
            "or malformed argument, a value out of range"},
    {mismatch, "verify / dist verify: a result does not match the reference"},
    {no_convergence, "solve / dist solve: breakdown, divergence or the iteration limit (the record "
                     "is still written)"},
    {offline, "fetch: the server or mirror could not be reached (offline); nothing was downloaded"},
};

}  // namespace spmvlab::exit_status
