// The CSR of the entries that Parser::read_entries (matrix_market.cpp) collected, chunk by
// chunk, in file order (class Parser, matrix_market_parser.hpp). Entries already in CSR order
// (every general file that write_matrix_market wrote) are concatenated; any other order goes
// through a parallel counting sort by row that keeps file order, a stable sort of each row by
// column and duplicates summed in file order, so that the result is the same, bit for bit,
// whatever the number of threads. Also the peak memory of this step, which the size-line check
// (matrix_market_header.cpp) and run() hold against the memory budget before it starts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "matrix_market_parser.hpp"

namespace spmv::io::detail {
namespace {

/// A CSR slot while the rows are assembled.
struct Slot {
    std::int32_t col;
    double val;
};

}  // namespace

std::size_t Parser::sort_groups(std::size_t chunks) const noexcept
{
    const auto n = static_cast<std::size_t>(info_.rows);
    std::size_t groups = std::min<std::size_t>(threads_, chunks);
    return (groups < 1 || n * groups > (std::size_t{1} << 26)) ? 1 : groups;
}

double Parser::assemble_bytes(bool csr_order, std::int64_t m) const noexcept
{
    const double rows = static_cast<double>(info_.rows) + 1;
    const double entries = static_cast<double>(m);
    if (csr_order) {
        return 4 * rows + 16 * entries;
    }
    const double groups = static_cast<double>(sort_groups(std::size_t{threads_} * 8));
    return 4 * rows * (3 + groups) + (16 + 16 + 12) * entries;
}

bool Parser::in_csr_order(const std::vector<Chunk>& chunks) noexcept
{
    std::int64_t last = -1;
    for (const auto& c : chunks) {
        if (!c.sorted) {
            return false;
        }
        if (c.out.rows.empty()) {
            continue;
        }
        const auto first = (std::int64_t{c.out.rows.front()} << 32) | c.out.cols.front();
        if (first <= last) {
            return false;
        }
        last = (std::int64_t{c.out.rows.back()} << 32) | c.out.cols.back();
    }
    return true;
}

Csr<double, std::int32_t> Parser::assemble(std::vector<Chunk>& chunks)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(info_.rows);
    a.num_cols = static_cast<std::int32_t>(info_.cols);
    const auto n = static_cast<std::size_t>(info_.rows);
    std::size_t m = 0;
    for (const auto& c : chunks) {
        m += c.out.vals.size();
    }
    a.row_ptrs.assign(n + 1, 0);

    if (in_csr_order(chunks)) {  // e.g. every file write_matrix_market wrote (general)
        for (const auto& c : chunks) {
            for (const auto r : c.out.rows) {
                ++a.row_ptrs[static_cast<std::size_t>(r) + 1];
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            a.row_ptrs[i + 1] += a.row_ptrs[i];
        }
        for (auto& c : chunks) {
            for (const double v : c.out.vals) {
                info_.explicit_zeros += v == 0.0 ? 1 : 0;
            }
        }
        if (!chunks.empty()) {
            a.col_idxs = std::move(chunks[0].out.cols);
            a.values = std::move(chunks[0].out.vals);
            a.col_idxs.reserve(m);
            a.values.reserve(m);
            for (std::size_t k = 1; k < chunks.size(); ++k) {
                auto& t = chunks[k].out;
                a.col_idxs.insert(a.col_idxs.end(), t.cols.begin(), t.cols.end());
                a.values.insert(a.values.end(), t.vals.begin(), t.vals.end());
                t = {};
            }
            a.col_idxs.shrink_to_fit();
            a.values.shrink_to_fit();
        }
        info_.nnz = static_cast<std::int64_t>(m);
        return a;
    }

    // Counting sort by row. Each group of consecutive chunks counts its rows on its own
    // thread, so that each group knows where its entries of row r go (after those of the
    // earlier groups): the scatter is parallel and keeps file order.
    const std::size_t groups = sort_groups(chunks.size());
    const auto group_begin = [&](std::size_t g) { return g * chunks.size() / groups; };
    std::vector<std::vector<std::int32_t>> pos(groups);
    parallel_for(groups, threads_, [&](std::size_t g) {
        pos[g].assign(n, 0);
        for (std::size_t k = group_begin(g); k < group_begin(g + 1); ++k) {
            for (const auto r : chunks[k].out.rows) {
                ++pos[g][static_cast<std::size_t>(r)];
            }
        }
    });
    std::vector<std::int32_t> start(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        std::int32_t s = start[i];
        for (std::size_t g = 0; g < groups; ++g) {
            const std::int32_t c = pos[g][i];
            pos[g][i] = s;
            s += c;
        }
        start[i + 1] = s;
    }
    const std::unique_ptr<Slot[]> slots(new Slot[m]);  // uninitialised: all written below
    parallel_for(groups, threads_, [&](std::size_t g) {
        auto& p = pos[g];
        for (std::size_t k = group_begin(g); k < group_begin(g + 1); ++k) {
            auto& t = chunks[k].out;
            for (std::size_t e = 0; e < t.rows.size(); ++e) {
                const auto r = static_cast<std::size_t>(t.rows[e]);
                slots[static_cast<std::size_t>(p[r]++)] = {t.cols[e], t.vals[e]};
            }
            t = {};
        }
        p = {};
    });

    // Sort each row by column and sum its duplicates in place; rows split into ranges of
    // about equal entry counts, several per thread.
    const std::size_t ranges = threads_ == 1 ? 1 : std::size_t{threads_} * 4;
    std::vector<std::size_t> range_row(ranges + 1, n);
    range_row[0] = 0;
    for (std::size_t q = 1; q < ranges; ++q) {
        const auto target = static_cast<std::int32_t>(m * q / ranges);
        range_row[q] = static_cast<std::size_t>(
            std::lower_bound(start.begin(), start.end() - 1, target) - start.begin());
    }
    std::vector<std::int32_t> kept(n, 0);
    std::vector<std::int64_t> duplicates(ranges, 0);
    std::vector<std::int64_t> zeros(ranges, 0);
    const auto by_col = [](const Slot& l, const Slot& r) { return l.col < r.col; };
    parallel_for(ranges, threads_, [&](std::size_t q) {
        std::int64_t dups = 0;
        std::int64_t zero = 0;
        for (std::size_t i = range_row[q]; i < range_row[q + 1]; ++i) {
            Slot* b = slots.get() + start[i];
            Slot* e = slots.get() + start[i + 1];
            if (e - b > 32) {
                if (!std::is_sorted(b, e, by_col)) {
                    std::stable_sort(b, e, by_col);
                }
            } else {  // insertion sort: stable and allocation-free for the usual short rows
                for (Slot* it = b; it != e; ++it) {
                    for (Slot* k = it; k != b && (k - 1)->col > k->col; --k) {
                        std::swap(*(k - 1), *k);
                    }
                }
            }
            Slot* w = b;
            for (Slot* it = b; it != e; ++it) {
                if (w != b && (w - 1)->col == it->col) {
                    (w - 1)->val += it->val;
                    ++dups;
                } else {
                    *w++ = *it;
                }
            }
            for (Slot* k = b; k != w; ++k) {
                zero += k->val == 0.0 ? 1 : 0;
            }
            kept[i] = static_cast<std::int32_t>(w - b);
        }
        duplicates[q] = dups;
        zeros[q] = zero;
    });
    for (std::size_t i = 0; i < n; ++i) {
        a.row_ptrs[i + 1] = a.row_ptrs[i] + kept[i];
    }
    const auto nnz = static_cast<std::size_t>(a.row_ptrs[n]);
    a.col_idxs.resize(nnz);
    a.values.resize(nnz);
    parallel_for(ranges, threads_, [&](std::size_t q) {
        for (std::size_t i = range_row[q]; i < range_row[q + 1]; ++i) {
            const Slot* b = slots.get() + start[i];
            auto w = static_cast<std::size_t>(a.row_ptrs[i]);
            for (const Slot* s = b; s != b + kept[i]; ++s, ++w) {
                a.col_idxs[w] = s->col;
                a.values[w] = s->val;
            }
        }
    });
    for (std::size_t q = 0; q < ranges; ++q) {
        info_.duplicates_summed += duplicates[q];
        info_.explicit_zeros += zeros[q];
    }
    info_.nnz = static_cast<std::int64_t>(nnz);
    return a;
}

}  // namespace spmv::io::detail
