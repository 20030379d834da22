#pragma once
/// `--format auto` / `--formats auto` / `--variant auto`: the format advisor's first choice
/// (spmv/model/advisor.hpp) for a matrix, and the line that says what was picked and why.
#include <string>

#include <spmv/formats/csr.hpp>
#include <spmv/model/advisor.hpp>
#include <spmv/registry.hpp>

namespace spmvlab {

struct AutoChoice {
    std::string variant;          ///< GPU kernel variant, e.g. "sell_i16"
    std::string format;           ///< its host registry format, e.g. "sell"
    spmv::FormatParams params;    ///< the layout's parameters (sigma resolved)
    std::string profile;          ///< GPU profile the ranking was made for
    std::string note;             ///< "format auto: sell_i16 (sell) ... because ..." for the user
};

/// Ranks every modelled variant for `a` (precision `precision`: "sp"/"dp"/"single"/"double")
/// on the GPU profile `gpu_option` ("auto": the device of this build if it has one, else H100,
/// said so in the note), with `params` as the user gave them (sigma 0 = auto), `iterations`
/// SpMVs to amortise setup over (0: per SpMV), and layouts above `max_format_bytes` (0: no
/// limit) excluded. `host_formats_only`: only variants whose format is the plain kernel of its
/// format (the variant named like the format), for commands that take a format, not a variant.
AutoChoice choose_format(const spmv::Csr<double, std::int32_t>& a, const std::string& precision,
                         const spmv::FormatParams& params, const std::string& gpu_option = "auto",
                         std::int64_t iterations = 0, double max_format_bytes = 0,
                         bool host_formats_only = false);

}  // namespace spmvlab
