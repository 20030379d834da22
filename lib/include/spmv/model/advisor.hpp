#pragma once
/// The format advisor: every modelled GPU kernel variant ranked for one matrix by the format
/// model's predicted time (format_model.hpp), with the reasons in words, the nearest kernel in
/// the libraries users know, and whether a permutation pays for itself over N SpMVs. Measured
/// times (from a `bench --gpu` record) replace predictions where the caller has them.
///
/// Setup cost: what the layout costs once before the first SpMV -- the host conversion from
/// CSR (a row sort for the permuted formats) and the upload over PCIe. It is estimated, not
/// measured: conversion at `host_ns_per_slot` per stored slot plus `host_ns_per_sort_entry`
/// per row and log2(rows) for a sort, upload at the profile's PCIe bandwidth. With
/// iterations = N the ranking is by setup + N x SpMV time; with N = 0 by SpMV time alone.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

namespace spmv::model {

struct AdvisorOptions {
    Precision precision = Precision::double_precision;
    std::int64_t iterations = 0;     ///< SpMVs the layout will serve (0: rank per SpMV)
    double max_format_bytes = 0;     ///< layouts whose footprint (double) exceeds this are not
                                     ///< candidates (0: no limit)
    FormatParams params{};           ///< sort_window 0 = sigma auto (the default here)
    std::vector<std::string> variants;  ///< candidates (empty: every modelled variant)
    double host_ns_per_slot = 2.0;      ///< setup estimate, see above
    double host_ns_per_sort_entry = 4.0;
    AdvisorOptions() { params.sort_window = 0; }
};

struct Recommendation {
    int rank = 0;                   ///< 1 = first choice; 0 = not a candidate (see why_not)
    std::string variant;
    std::string format;
    FormatParams params;            ///< the layout's parameters (sigma resolved)
    bool candidate = true;
    std::string why_not;            ///< infeasible, over the memory limit, ...
    FormatPrediction prediction;
    double measured_s = 0;          ///< > 0: a measured time was given for this variant
    double spmv_s = 0;              ///< what the ranking uses: measured_s if given, else predicted
    double setup_s = 0;             ///< estimated one-off cost (conversion + upload)
    double total_s = 0;             ///< setup_s + iterations x spmv_s (iterations > 0)
    double footprint_bytes = 0;     ///< the layout in double precision
    double padding_share = 0;       ///< padding slots / stored slots
    double idle_lanes = 0;          ///< 1 - useful fraction of the lanes' loop trips
    std::int64_t breakeven_iterations = -1;  ///< permuted: SpMVs after which the sort has paid
                                             ///< off against the best unpermuted variant (-1:
                                             ///< never, it is not faster; 0: not permuted)
    std::vector<std::string> reasons;  ///< in words, most telling first
    std::string equivalent;            ///< nearest kernel in cuSPARSE / Ginkgo / PETSc / MAGMA
};

struct Advice {
    std::string matrix;
    std::string profile;
    Precision precision = Precision::double_precision;
    std::int64_t iterations = 0;
    std::string constants_source;
    double overlap_q = 0;  ///< the constants' q (FormatModelConstants::overlap_q)
    std::vector<Recommendation> ranked;  ///< candidates by rank, then the non-candidates
    /// The first choice (ranked.front()); throws if no variant is a candidate.
    const Recommendation& best() const;
    /// One sentence: "sell_i16 (SELL-32-1, 16-bit offsets): 31.6 us predicted, ..."
    std::string summary() const;
};

/// Ranks the variants for `a` on `gpu`. `constants` default to builtin_constants(gpu);
/// `measured` maps variant names to measured SpMV seconds (used instead of the prediction).
/// Throws InvalidArgument for an empty matrix or an unknown variant name.
Advice advise(const Csr<double, std::int32_t>& a, const GpuProfile& gpu,
              const AdvisorOptions& options = {}, const FormatModelConstants* constants = nullptr,
              const std::map<std::string, double>& measured = {});

}  // namespace spmv::model
