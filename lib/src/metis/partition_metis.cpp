// METIS graph partition (built when libmetis-dev was found; see metis_none.cpp otherwise).
#include <metis.h>

#include <algorithm>
#include <string>
#include <vector>

#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

namespace detail {
Partition owner_partition(std::vector<std::int32_t> owner, int ranks);
}

bool has_metis() noexcept { return true; }

template <typename ValueType>
Partition partition_metis(const Csr<ValueType, std::int32_t>& a, int ranks, int seed)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(a.num_rows == a.num_cols, "the METIS partition needs a square matrix (the "
                                           "graph of A + A^T); use rows or nnz");
    const std::int32_t n = a.num_rows;
    std::vector<std::int32_t> owner(static_cast<std::size_t>(n), 0);
    if (ranks >= n) {  // one row each; the remaining ranks own nothing
        for (std::int32_t i = 0; i < n; ++i) {
            owner[static_cast<std::size_t>(i)] = i;
        }
        return detail::owner_partition(std::move(owner), ranks);
    }
    if (ranks > 1) {
        // adjacency of A + A^T without the diagonal: both directions of every entry, then
        // sorted and deduplicated per vertex
        std::vector<std::vector<idx_t>> adj(static_cast<std::size_t>(n));
        for (std::int32_t i = 0; i < n; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                const auto j = a.col_idxs[static_cast<std::size_t>(k)];
                if (j != i) {
                    adj[static_cast<std::size_t>(i)].push_back(j);
                    adj[static_cast<std::size_t>(j)].push_back(i);
                }
            }
        }
        std::vector<idx_t> xadj{0};
        std::vector<idx_t> adjncy;
        std::vector<idx_t> vwgt(static_cast<std::size_t>(n));
        for (std::int32_t i = 0; i < n; ++i) {
            auto& l = adj[static_cast<std::size_t>(i)];
            std::sort(l.begin(), l.end());
            l.erase(std::unique(l.begin(), l.end()), l.end());
            adjncy.insert(adjncy.end(), l.begin(), l.end());
            xadj.push_back(static_cast<idx_t>(adjncy.size()));
            std::vector<idx_t>().swap(l);
            // balance the SpMV work: a vertex weighs its row's nonzeros (at least 1)
            vwgt[static_cast<std::size_t>(i)] =
                std::max<idx_t>(1, a.row_ptrs[i + 1] - a.row_ptrs[i]);
        }
        idx_t nv = n;
        idx_t ncon = 1;
        idx_t nparts = ranks;
        idx_t cut = 0;
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = seed;
        std::vector<idx_t> part(static_cast<std::size_t>(n));
        const int rc = METIS_PartGraphKway(&nv, &ncon, xadj.data(),
                                           adjncy.empty() ? nullptr : adjncy.data(), vwgt.data(),
                                           nullptr, nullptr, &nparts, nullptr, nullptr, options,
                                           &cut, part.data());
        if (rc != METIS_OK) {
            SPMV_THROW(Error, "METIS_PartGraphKway failed (code " + std::to_string(rc) +
                                  ") for " + std::to_string(n) + " rows into " +
                                  std::to_string(ranks) + " parts");
        }
        for (std::size_t i = 0; i < part.size(); ++i) {
            owner[i] = static_cast<std::int32_t>(part[i]);
        }
    }
    auto p = detail::owner_partition(std::move(owner), ranks);
    p.kind = PartitionKind::metis;
    return p;
}

template Partition partition_metis<double>(const Csr<double, std::int32_t>&, int, int);
template Partition partition_metis<float>(const Csr<float, std::int32_t>&, int, int);

}  // namespace spmv::dist
