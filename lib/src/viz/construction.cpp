// The construction engine (spmv/viz/construction.hpp): prepares the format's layout once, then
// plays the common first step and asks the format's registry entry for the rest. It knows no
// format: every format's steps are in its own story file (lib/src/formats/<name>_story.cpp),
// built with the kit in construction_kit.hpp.
#include <spmv/viz/construction.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/error.hpp>

#include "construction_kit.hpp"

namespace spmv::viz {

using detail::CsrD;
using detail::num;

std::optional<std::size_t> StorageArray::position(std::int64_t i) const
{
    const auto it = std::lower_bound(index.begin(), index.end(), i);
    if (it == index.end() || *it != i) return std::nullopt;
    return static_cast<std::size_t>(it - index.begin());
}

std::optional<std::pair<int, int>> ConstructionStep::find_nonzero(std::int64_t nz) const
{
    if (nz < 0) return std::nullopt;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].nz == nz) {
            return std::pair<int, int>{static_cast<int>(i / static_cast<std::size_t>(cols)),
                                       static_cast<int>(i % static_cast<std::size_t>(cols))};
        }
    }
    return std::nullopt;
}

std::vector<std::size_t> ConstructionStep::related_entries(const StorageArray& array, int r,
                                                           int c) const
{
    std::vector<std::size_t> out;
    if (r < 0 || c < 0 || r >= rows || c >= cols) return out;
    const Cell& x = at(r, c);
    auto add = [&](std::int64_t i) {
        if (i < 0) return;
        if (const auto p = array.position(i)) out.push_back(*p);
    };
    switch (array.key) {
        case ArrayKey::slot:
            if (x.part == array.part) add(x.slot);
            break;
        case ArrayKey::grid_row:
            add(row_offset + r);
            break;
        case ArrayKey::matrix_row:
            if (x.row >= 0) {
                add(x.row);
                add(x.row + 1);
            }
            break;
        case ArrayKey::grid_column:
            if (x.slot >= 0) add(col_offset + c);
            break;
        case ArrayKey::block:
            add((row_offset + r) / std::max(array.key_divisor, 1));
            break;
        case ArrayKey::matrix_column:
            if (x.col >= 0) {
                add(x.col);
                add(x.col + 1);
            }
            break;
        case ArrayKey::cell_group:
            add(x.group);
            break;
    }
    return out;
}

std::vector<int> ConstructionStep::boundary_rows() const
{
    std::vector<int> v;
    for (int r = 1; r < rows; ++r) {
        const auto k = row_offset + r;
        if ((block_rows > 0 && k % block_rows == 0) ||
            std::find(row_boundaries.begin(), row_boundaries.end(), k) != row_boundaries.end()) {
            v.push_back(r);
        }
    }
    return v;
}

std::string ConstructionStep::window_label() const
{
    auto span = [](std::int64_t first, int n, std::int64_t total, const std::string& what) {
        if (n <= 0) return "no " + what;
        return what + " " + num(first) + "\u2013" + num(first + n - 1) + " of " + num(total);
    };
    // sorted steps show grid positions whose labels are the original rows: say so, so that
    // "positions 1000-1063" next to labels "row 999833" is not read as a contradiction
    bool sorted = false;
    for (std::size_t k = 0; k < row_source.size() && !sorted; ++k) {
        sorted = row_source[k] >= 0 && row_source[k] != row_offset + static_cast<std::int64_t>(k);
    }
    const std::string what = !row_axis.empty() ? row_axis + " rows"
                             : sorted          ? "sorted positions"
                                               : "rows";
    return span(row_offset, rows, total_rows, what) + ", " +
           span(col_offset, cols, total_cols, "columns");
}

// ------------------------------------------------------------------ values written in cells

namespace {

/// "1e+20" -> "1e20", "1.5e-07" -> "1.5e-7"
std::string compact_exponent(std::string s)
{
    const auto e = s.find('e');
    if (e == std::string::npos) return s;
    std::size_t i = e + 1;
    std::string sign;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        if (s[i] == '-') sign = "-";
        ++i;
    }
    while (i + 1 < s.size() && s[i] == '0') ++i;
    return s.substr(0, e + 1) + sign + s.substr(i);
}

const std::string ellipsis = "\u2026";

}  // namespace

int text_chars(const std::string& utf8)
{
    int n = 0;
    for (const char ch : utf8) {
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;  // not a continuation byte
    }
    return n;
}

std::string full_value_text(double value)
{
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    std::array<char, 64> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    return compact_exponent(std::string(buf.data(), r.ptr));
}

std::string cell_value_text(double value, int max_chars)
{
    if (max_chars < 1) return "";
    std::string full = full_value_text(value);
    if (text_chars(full) <= max_chars) return full;
    if (!std::isfinite(value)) return ellipsis;
    // the significant digits D and exponent E of the shortest exact form: value = d.ddd x 10^E
    std::array<char, 64> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                                 std::chars_format::scientific);
    const std::string sci(buf.data(), r.ptr);
    const bool negative = sci.front() == '-';
    const auto e = sci.find('e');
    std::string digits;
    for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
        if (sci[i] != '.') digits += sci[i];
    }
    const int exponent = std::stoi(sci.substr(e + 1));
    const std::string sign = negative ? "-" : "";
    const auto total = static_cast<int>(digits.size());
    // the first n digits in fixed notation; "" where that would misstate the magnitude (a cut
    // inside the integer part)
    auto fixed = [&](int n) -> std::string {
        const bool cut = n < total;
        std::string d = digits.substr(0, static_cast<std::size_t>(n));
        std::string t;
        if (exponent >= 0) {
            if (cut && n < exponent + 1) return "";
            if (static_cast<int>(d.size()) < exponent + 1) d.resize(static_cast<std::size_t>(exponent) + 1, '0');
            t = sign + d.substr(0, static_cast<std::size_t>(exponent) + 1);
            const auto frac = d.substr(static_cast<std::size_t>(exponent) + 1);
            if (!frac.empty()) t += "." + frac;
        } else {
            t = sign + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + d;
        }
        return cut ? t + ellipsis : t;
    };
    auto scientific = [&](int n) -> std::string {
        std::string t = sign + digits.substr(0, 1);
        if (n > 1) t += "." + digits.substr(1, static_cast<std::size_t>(n) - 1);
        if (n < total) t += ellipsis;
        return t + "e" + std::to_string(exponent);
    };
    std::string best_fixed, best_sci;
    int n_fixed = 0, n_sci = 0;
    for (int n = 1; n <= total; ++n) {
        const auto f = fixed(n);
        if (!f.empty() && text_chars(f) <= max_chars) {
            best_fixed = f;
            n_fixed = n;
        }
        const auto s = scientific(n);
        if (text_chars(s) <= max_chars) {
            best_sci = s;
            n_sci = n;
        }
    }
    if (n_fixed == 0 && n_sci == 0) return ellipsis;
    return n_fixed >= n_sci ? best_fixed : best_sci;
}

std::vector<std::string_view> construction_formats()
{
    std::vector<std::string_view> v;
    for (const auto& f : formats()) {
        if (f.construction_steps != nullptr) v.push_back(f.name);
    }
    return v;
}

Csr<double, std::int32_t> leading_submatrix(const Csr<double, std::int32_t>& a, std::int32_t rows,
                                            std::int32_t cols)
{
    CsrD b;
    b.num_rows = std::clamp(rows, 0, a.num_rows);
    b.num_cols = std::clamp(cols, 0, a.num_cols);
    b.row_ptrs.assign(1, 0);
    for (std::int32_t r = 0; r < b.num_rows; ++r) {
        for (auto k = a.row_ptrs[r]; k < a.row_ptrs[r + 1]; ++k) {
            if (a.col_idxs[static_cast<std::size_t>(k)] < b.num_cols) {
                b.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
                b.values.push_back(a.values[static_cast<std::size_t>(k)]);
            }
        }
        b.row_ptrs.push_back(static_cast<std::int32_t>(b.col_idxs.size()));
    }
    return b;
}

std::shared_ptr<const ConstructionSource> prepare_construction(
    std::shared_ptr<const Csr<double, std::int32_t>> a, std::string_view format,
    const FormatParams& params, std::size_t max_bytes)
{
    SPMV_EXPECTS(a != nullptr, "prepare_construction: no matrix");
    const auto* info = find_format_or_null(format);
    if (info == nullptr || info->construction_steps == nullptr) {
        std::string names;
        for (auto n : construction_formats()) names += (names.empty() ? "" : " ") + std::string(n);
        SPMV_THROW(InvalidArgument, "no construction steps for format '" + std::string(format) +
                                        "'; available: " + names);
    }
    const auto need = analysis::estimate_footprint(*a, format, params).total_bytes();
    if (need > max_bytes) {
        SPMV_THROW(InvalidArgument,
                   std::string(info->title) + " of this matrix would need " +
                       analysis::format_bytes(static_cast<double>(need)) + " (limit " +
                       analysis::format_bytes(static_cast<double>(max_bytes)) +
                       "): not built. Pick a format with less padding.");
    }
    auto src = std::make_shared<ConstructionSource>();
    src->a = std::move(a);
    src->format = std::string(format);
    src->params = params;
    const auto len = row_lengths(*src->a);
    src->max_len = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    src->built = build<double>(format, *src->a, params);
    if (info->construction_prepare != nullptr) info->construction_prepare(*src, max_bytes);
    return src;
}

ThreadWork construction_thread_work(const ConstructionSource& source)
{
    return thread_work(source.built);
}

Construction construction(const ConstructionSource& src, const ConstructionWindow& window)
{
    // the focused nonzero's row, column and place in its row, which the steps look for
    ConstructionWindow w = window;
    w.focus_row = w.focus_col = -1;
    w.focus_pos = -1;
    if (w.focus >= nnz(*src.a)) w.focus = -1;
    if (w.focus >= 0) {
        const auto& rp = src.a->row_ptrs;
        const auto row = std::upper_bound(rp.begin(), rp.end(), w.focus) - rp.begin() - 1;
        w.focus_row = static_cast<std::int32_t>(row);
        w.focus_col = src.a->col_idxs[static_cast<std::size_t>(w.focus)];
        w.focus_pos = w.focus - rp[static_cast<std::size_t>(row)];
    }
    Construction c;
    c.format = src.format;
    c.matrix_rows = src.a->num_rows;
    c.matrix_cols = src.a->num_cols;
    c.window = w;
    const auto& info = find_format(src.format);
    c.title = std::string(info.title);
    c.steps.push_back(detail::matrix_step(*src.a, w));
    info.construction_steps(src, w, c);  // the format's own steps (its story file)
    for (const auto& s : c.steps) {
        c.windowed = c.windowed || s.windowed();
        c.max_total_rows = std::max(c.max_total_rows, s.total_rows);
        c.max_total_cols = std::max(c.max_total_cols, s.total_cols);
    }
    return c;
}

Construction construction(const Csr<double, std::int32_t>& a, std::string_view format,
                          const FormatParams& params, const ConstructionWindow& window,
                          std::size_t max_bytes)
{
    // a non-owning pointer: `a` outlives this call
    const auto src = prepare_construction(
        std::shared_ptr<const CsrD>(std::shared_ptr<const CsrD>{}, &a), format, params, max_bytes);
    return construction(*src, window);
}

}  // namespace spmv::viz
