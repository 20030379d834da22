#pragma once
// What the explorer writes about a format, taken from the format registry (spmv/registry.hpp:
// FormatInfo title and params) instead of checks on format names: a format added to the
// registry is titled and described without an edit here.
#include <string_view>

#include <QString>

#include <spmv/analysis/sweep.hpp>
#include <spmv/registry.hpp>

/// The registry's title of format `name` ("SELL-C-σ", "pJDS"); the name itself when the
/// registry does not know it.
QString formatTitle(std::string_view name);

/// A parameter's symbol as the papers write it: σ, C, b_r, K, W (warp size), ...
QString paramSymbol(spmv::Param p);

/// Format `name` reads parameter `p` (FormatInfo::params).
bool readsParam(std::string_view name, spmv::Param p);

/// The layout's name: the format's title with every dash-separated part that is the symbol of
/// one of its parameters replaced by that parameter's value, as Kreutzer et al. name SELL-C-σ
/// layouts: SELL-C-σ with C = 32 and σ = 4 reads "SELL-32-4". A title without such parts stays
/// as it is ("pJDS", "ELLPACK-R").
QString layoutTitle(std::string_view name, const spmv::FormatParams& params);

/// Building `name` with `params` sorts rows by length inside windows of σ rows: the format
/// reads σ (Param::sort_window) and σ is above 1 (σ = 1 keeps the order, FormatParams).
bool sortsWithinSigma(std::string_view name, const spmv::FormatParams& params);

/// "σ of SELL-C-σ": a sweepable parameter with the registry's title of the format it belongs
/// to (spmv::analysis::sweep_format).
QString sweepParamLabel(spmv::Param p);

/// A sweep's title: the registry's title of the swept format, then its other sweepable
/// parameters as held fixed ("SELL-C-σ, C = 32"), an "auto" one (σ = 0) as chosen per point
/// ("SELL-C-σ, σ automatic per C").
QString sweepTitle(const spmv::analysis::SweepResult& r);
