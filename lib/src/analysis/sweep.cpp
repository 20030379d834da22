#include <spmv/analysis/sweep.hpp>

#include <algorithm>
#include <functional>
#include <string>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/registry.hpp>

namespace spmv::analysis {
namespace {

using I = std::int32_t;

struct Sweepable {
    std::string_view format;
    Param param;
};

constexpr Sweepable sweepable[] = {{"sell", Param::sort_window},
                                   {"sell", Param::slice_height},
                                   {"pjds", Param::block_rows},
                                   {"hyb", Param::hyb_width}};

const ParamInfo& schema(Param p)
{
    for (const auto& info : parameters()) {
        if (info.id == p) return info;
    }
    SPMV_THROW(InvalidArgument, "parameter without a schema entry");
}

std::string sweepable_list()
{
    std::string s;
    for (const auto& w : sweepable) {
        s += (s.empty() ? "" : ", ") + std::string(schema(w.param).name) + " of " +
             std::string(w.format);
    }
    return s;
}

/// Threads of a kernel, fed in launch order, grouped into warps by analyze_warps a chunk at a
/// time: the real thread_work of a 10^6-row matrix would hold three vectors of 10^6 entries
/// per point, and HYB's COO part one thread per entry. Chunks end on warp boundaries, so only
/// the last warp of the last chunk can be short, exactly as in one analyze_warps call.
class WarpStream {
public:
    explicit WarpStream(int warp_size)
        : warp_size_(warp_size),
          chunk_(static_cast<std::size_t>(warp_size) *
                 static_cast<std::size_t>(std::max(1, 65536 / warp_size)))
    {
        work_.iterations.reserve(chunk_);
        work_.useful.reserve(chunk_);
        work_.stored.reserve(chunk_);
    }

    void add(std::int64_t iterations, std::int64_t useful, std::int64_t stored)
    {
        work_.iterations.push_back(iterations);
        work_.useful.push_back(useful);
        work_.stored.push_back(stored);
        slots_read_ += iterations;
        if (work_.iterations.size() == chunk_) flush();
    }

    /// `count` threads of one trip each on one real entry (COO). Past the current warp they
    /// form full warps of one trip, useful warp_size, which are added in closed form, so HYB's
    /// cost does not grow with nnz.
    void add_unit_threads(std::int64_t count)
    {
        const std::int64_t ws = warp_size_;
        while (count > 0 && static_cast<std::int64_t>(work_.iterations.size()) % ws != 0) {
            add(1, 1, 1);
            --count;
        }
        const std::int64_t full = count / ws;
        total_.n_iter += full;
        total_.useful += full * ws;
        total_.n_p += full * ws;  // 2 * 1 - 1 flops per thread
        total_.stored += full * ws;
        total_.threads += full * ws;
        slots_read_ += full * ws;
        for (std::int64_t k = 0; k < count % ws; ++k) add(1, 1, 1);
    }

    WarpAnalysis finish()
    {
        flush();
        total_.warp_size = warp_size_;
        const double slots = static_cast<double>(warp_size_) * static_cast<double>(total_.n_iter);
        // same convention as analyze_warps: no lane slot at all wastes nothing
        total_.useful_fraction =
            total_.n_iter == 0 ? 1.0 : static_cast<double>(total_.useful) / slots;
        return total_;
    }

    std::int64_t slots_read() const { return slots_read_; }

private:
    void flush()
    {
        if (work_.iterations.empty()) return;
        const auto part = analyze_warps(work_, warp_size_);
        total_.threads += part.threads;
        total_.n_iter += part.n_iter;
        total_.n_p += part.n_p;
        total_.useful += part.useful;
        total_.idle_slots += part.idle_slots;
        total_.phantom_slots += part.phantom_slots;
        total_.stored += part.stored;
        total_.stored_padding += part.stored_padding;
        work_.iterations.clear();
        work_.useful.clear();
        work_.stored.clear();
    }

    int warp_size_;
    std::size_t chunk_;
    ThreadWork work_;
    WarpAnalysis total_;  // warps stay empty: only the totals are summed
    std::int64_t slots_read_ = 0;
};

/// Row lengths sorted longest first inside consecutive windows of `window` rows: the order in
/// which SELL-C-σ (window σ) and pJDS (window N) store their rows.
std::vector<I> sorted_in_windows(const std::vector<I>& len, std::int64_t window)
{
    std::vector<I> s = len;
    const auto n = static_cast<std::int64_t>(s.size());
    if (window <= 1) return s;
    for (std::int64_t first = 0; first < n; first += window) {
        std::sort(s.begin() + first, s.begin() + std::min(n, first + window), std::greater<>());
    }
    return s;
}

/// SELL-C-σ's thread_work: one thread per stored row, padding rows of the last slice
/// included, each running its slice's width.
WarpAnalysis sell_warps(const std::vector<I>& sorted, std::int64_t c, int warp_size,
                        std::int64_t& slots_read)
{
    WarpStream stream(warp_size);
    const auto n = static_cast<std::int64_t>(sorted.size());
    for (std::int64_t first = 0; first < n; first += c) {
        const auto last = std::min(n, first + c);
        const std::int64_t width = *std::max_element(sorted.begin() + first, sorted.begin() + last);
        for (std::int64_t k = first; k < first + c; ++k) {
            stream.add(width, k < n ? sorted[static_cast<std::size_t>(k)] : 0, width);
        }
    }
    slots_read = stream.slots_read();
    return stream.finish();
}

/// pJDS's thread_work: one thread per sorted row, running its own length; stored = the longest
/// row of its block of b_r rows (the first, as the rows are sorted). With pad_rows (pjds_pad,
/// Kreutzer footnote 2) the layout's rows are rounded up to a multiple of b_r: the extra
/// threads run 0 trips in the last block.
WarpAnalysis pjds_warps(const std::vector<I>& sorted, std::int64_t block_rows, bool pad_rows,
                        int warp_size, std::int64_t& slots_read)
{
    WarpStream stream(warp_size);
    const auto n = sorted.size();
    const auto b = static_cast<std::size_t>(block_rows);
    const std::size_t rows = pad_rows ? (n + b - 1) / b * b : n;
    for (std::size_t k = 0; k < rows; ++k) {
        const auto block_first = k / b * b;
        const std::int64_t len = k < n ? sorted[k] : 0;
        stream.add(len, len, sorted[block_first]);
    }
    slots_read = stream.slots_read();
    return stream.finish();
}

/// HYB's thread_work: the ELL kernel (one thread per row, K trips, only when K > 0), then the
/// COO kernel (one thread per entry beyond K).
WarpAnalysis hyb_warps(const std::vector<I>& len, std::int64_t k, int warp_size,
                       std::int64_t& slots_read, std::int64_t& coo)
{
    WarpStream stream(warp_size);
    coo = 0;
    for (const auto l : len) {
        if (k > 0) stream.add(k, std::min<std::int64_t>(l, k), k);
        coo += std::max<std::int64_t>(0, l - k);
    }
    stream.add_unit_threads(coo);
    slots_read = stream.slots_read();
    return stream.finish();
}

const ParamInfo& check_sweepable(std::string_view format, Param param)
{
    const auto& info = find_format(format);  // InvalidArgument listing the known names
    const auto& pinfo = schema(param);
    SPMV_EXPECTS(std::find(info.params.begin(), info.params.end(), param) != info.params.end(),
                 "format '" + std::string(format) + "' has no parameter " +
                     std::string(pinfo.name) + "; sweepable: " + sweepable_list());
    SPMV_EXPECTS(is_sweepable(format, param),
                 "no sweep of parameter " + std::string(pinfo.name) + " of format '" +
                     std::string(format) + "'; sweepable: " + sweepable_list());
    return pinfo;
}

/// The builder's choice for setting `value` (see resolved_value), from the row lengths.
int resolve(const Csr<double, std::int32_t>& a, const std::vector<I>& len, Param param,
            const FormatParams& params, int value)
{
    if (param == Param::sort_window && value == 0) {  // SELL's registry entry resolves it
        FormatParams p = params;
        p.sort_window = 0;
        return resolve_params("sell", a, p).sort_window;
    }
    if (param == Param::hyb_width) {
        if (value < 0) return static_cast<int>(hyb_auto_width(std::span<const I>(len)));
        const std::int64_t longest = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
        return static_cast<int>(std::min<std::int64_t>(value, longest));
    }
    return value;
}

bool is_log_scale(const std::vector<int>& values)
{
    return !values.empty() && values.front() >= 1 &&
           static_cast<std::int64_t>(values.back()) >=
               8 * static_cast<std::int64_t>(values.front());
}

}  // namespace

bool is_sweepable(std::string_view format, Param param)
{
    return std::any_of(std::begin(sweepable), std::end(sweepable),
                       [&](const Sweepable& s) { return s.format == format && s.param == param; });
}

std::string_view sweep_format(Param param)
{
    for (const auto& s : sweepable) {
        if (s.param == param) return s.format;
    }
    SPMV_THROW(InvalidArgument, "no sweep of parameter " + std::string(schema(param).name) +
                                    "; sweepable: " + sweepable_list());
}

std::pair<int, int> sweep_range(Param param)
{
    const auto& info = schema(param);
    // σ = 0 and K = -1 ask the builder to choose: not a value on an axis
    if (param == Param::sort_window) return {1, info.max_value};
    if (param == Param::hyb_width) return {0, info.max_value};
    return {info.min_value, info.max_value};
}

std::vector<int> default_sweep_values(const Csr<double, std::int32_t>& a, Param param)
{
    (void)sweep_format(param);  // InvalidArgument for a parameter no sweep supports
    const auto [lo, hi] = sweep_range(param);
    const std::int64_t n = a.num_rows;
    std::vector<int> v;
    if (param == Param::hyb_width) {
        const auto len = row_lengths(a);
        const std::int64_t longest = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
        if (longest <= 32) {
            for (std::int64_t k = 0; k <= longest; ++k) v.push_back(static_cast<int>(k));
        } else {
            for (std::int64_t k = 1; k < longest; k *= 2) v.push_back(static_cast<int>(k));
            v.push_back(static_cast<int>(std::min<std::int64_t>(longest, hi)));
        }
        return v;
    }
    if (param == Param::sort_window) {
        for (std::int64_t s = 1; s < n && s < hi; s *= 2) v.push_back(static_cast<int>(s));
        v.push_back(static_cast<int>(std::clamp<std::int64_t>(n, lo, hi)));
        return v;
    }
    // C, b_r: up to the first power of two >= N (a larger block holds only empty rows)
    for (std::int64_t s = lo; s <= hi; s *= 2) {
        v.push_back(static_cast<int>(s));
        if (s >= n) break;
    }
    return v;
}

int resolved_value(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                   const FormatParams& params)
{
    (void)check_sweepable(format, param);
    return resolve(a, row_lengths(a), param, params, get(params, param));
}

SweepResult sweep(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                  const FormatParams& base, std::span<const int> values,
                  const SweepOptions& options)
{
    const auto& pinfo = check_sweepable(format, param);
    SPMV_EXPECTS(options.gpu.memory_bandwidth_gbs > 0.0,
                 "GPU profile '" + options.gpu.name + "' has no positive memory bandwidth");
    SPMV_EXPECTS(base.warp_size >= 1,
                 "warp size must be >= 1, got " + std::to_string(base.warp_size));

    std::vector<int> v(values.begin(), values.end());
    if (v.empty()) v = default_sweep_values(a, param);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const auto [lo, hi] = sweep_range(param);
    for (const int x : v) {
        SPMV_EXPECTS(x >= lo && x <= hi, "sweep of " + std::string(pinfo.name) + ": value " +
                                             std::to_string(x) + " is outside [" +
                                             std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }

    const auto len = row_lengths(a);
    const std::int64_t n = a.num_rows;
    const std::int64_t nnz_a = nnz(a);
    const double sv = model::value_bytes(options.precision);
    const double si = model::index_bytes;
    if (nnz_a > 0) {
        const double lo_alpha =
            model::min_alpha(static_cast<double>(nnz_a) / static_cast<double>(n));
        SPMV_EXPECTS(options.alpha >= lo_alpha * (1.0 - 1e-12) && options.alpha <= 1.0,
                     "alpha = " + std::to_string(options.alpha) + " is outside [" +
                         std::to_string(lo_alpha) + ", 1] (1/N_nzr <= alpha <= 1)");
    } else {
        SPMV_EXPECTS(options.alpha > 0.0 && options.alpha <= 1.0,
                     "alpha = " + std::to_string(options.alpha) + " is outside (0, 1]");
    }

    SweepResult r;
    r.format = std::string(format);
    r.param = param;
    r.base = base;
    r.precision = options.precision;
    r.gpu = options.gpu;
    r.alpha = options.alpha;
    r.rows = n;
    r.nnz = nnz_a;
    r.log_scale = is_log_scale(v);
    r.current_value = resolve(a, len, param, base, get(base, param));

    // pJDS sorts globally and a C sweep keeps σ: sort once, not per point
    std::vector<I> sorted_once;
    if (format == "pjds") sorted_once = sorted_in_windows(len, std::max<std::int64_t>(n, 1));
    if (param == Param::slice_height && base.sort_window > 0) {
        sorted_once = sorted_in_windows(len, base.sort_window);
    }

    for (const int x : v) {
        FormatParams p = base;
        set(p, param, x);
        SweepPoint pt;
        pt.value = x;
        pt.effective_value = resolve(a, len, param, p, x);
        if (format == "sell") p.sort_window = resolve(a, len, Param::sort_window, p, p.sort_window);
        const Footprint f = estimate_footprint(a, format, p);
        pt.stored_slots = f.stored_entries;
        pt.padding_slots = f.padding_entries;
        pt.padding_share = f.stored_entries == 0 ? 0.0
                                                 : static_cast<double>(f.padding_entries) /
                                                       static_cast<double>(f.stored_entries);
        // estimate_footprint counts 8-byte values in every stored slot (real and padding)
        pt.storage_bytes = f.total_bytes() - static_cast<std::size_t>(f.stored_entries) *
                                                 (sizeof(double) - static_cast<std::size_t>(sv));

        WarpAnalysis w;
        if (format == "sell") {
            std::vector<I> sorted_here;  // a σ sweep sorts per point
            if (sorted_once.empty()) sorted_here = sorted_in_windows(len, p.sort_window);
            w = sell_warps(sorted_once.empty() ? sorted_here : sorted_once, p.slice_height,
                           p.warp_size, pt.slots_read);
        } else if (format == "pjds") {
            w = pjds_warps(sorted_once, p.block_rows, p.pjds_pad != 0, p.warp_size,
                           pt.slots_read);
        } else {
            w = hyb_warps(len, pt.effective_value, p.warp_size, pt.slots_read, pt.coo_entries);
        }
        pt.threads = w.threads;
        pt.n_iter = w.n_iter;
        pt.idle_slots = w.idle_slots;
        pt.warp_efficiency = w.useful_fraction;

        pt.bytes_moved = static_cast<double>(pt.slots_read) * (sv + si) +
                         static_cast<double>(nnz_a) * options.alpha * sv +
                         static_cast<double>(n) * 2.0 * sv +
                         static_cast<double>(pt.coo_entries) * (si + 2.0 * sv);
        pt.predicted_seconds = pt.bytes_moved / (options.gpu.memory_bandwidth_gbs * 1e9);
        r.points.push_back(pt);
    }
    return r;
}

}  // namespace spmv::analysis
