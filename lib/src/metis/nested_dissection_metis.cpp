// Nested dissection with METIS_NodeND (built when libmetis-dev was found; see
// nested_dissection_none.cpp otherwise).
#include <metis.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

bool has_nested_dissection() noexcept { return true; }

std::vector<std::int32_t> nested_dissection(const Csr<double, std::int32_t>& a)
{
    const auto g = symmetrised_graph(a);  // InvalidArgument unless square
    const std::int32_t n = g.num_vertices();
    std::vector<std::int32_t> order(static_cast<std::size_t>(n));
    if (g.neighbours.empty()) {
        // no edges (a diagonal or empty matrix): there is nothing to dissect, any order is a
        // nested dissection; keep the given one rather than hand METIS a graph without edges
        std::iota(order.begin(), order.end(), 0);
        return order;
    }
    if (g.neighbours.size() > static_cast<std::size_t>(std::numeric_limits<idx_t>::max())) {
        SPMV_THROW(NotApplicable, "nested dissection: the graph of A + A^T has " +
                                      std::to_string(g.neighbours.size()) +
                                      " adjacency entries, more than this METIS's " +
                                      std::to_string(8 * sizeof(idx_t)) +
                                      "-bit idx_t can index");
    }
    // METIS wants idx_t arrays (32-bit in Debian's build) and no self loops (symmetrised_graph
    // has none); it does not change xadj and adjncy, but takes them as non-const pointers
    std::vector<idx_t> xadj(g.offsets.begin(), g.offsets.end());
    std::vector<idx_t> adjncy(g.neighbours.begin(), g.neighbours.end());
    std::vector<idx_t> perm(static_cast<std::size_t>(n));
    std::vector<idx_t> iperm(static_cast<std::size_t>(n));
    idx_t nv = n;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    const int rc = METIS_NodeND(&nv, xadj.data(), adjncy.data(), nullptr, options, perm.data(),
                                iperm.data());
    if (rc != METIS_OK) {
        const char* why = rc == METIS_ERROR_INPUT    ? "input error"
                          : rc == METIS_ERROR_MEMORY ? "out of memory"
                                                     : "error";
        SPMV_THROW(Error, "METIS_NodeND failed (code " + std::to_string(rc) + ", " + why +
                              ") on the graph of A + A^T with " + std::to_string(n) +
                              " vertices and " + std::to_string(g.num_edges()) + " edges");
    }
    // METIS manual (5.1, METIS_NodeND): "row (column) i of A' is the perm[i] row (column) of
    // A", so perm[new] = old, our convention. tests/analysis/test_reorder.cpp checks it: the hub
    // of a star (the separator, eliminated last) must come last.
    for (std::size_t k = 0; k < order.size(); ++k) {
        order[k] = static_cast<std::int32_t>(perm[k]);
    }
    validate_permutation<std::int32_t>(order, n, "METIS_NodeND");
    return order;
}

}  // namespace spmv::analysis
