// Reverse Cuthill-McKee with Boost.Graph (built when boost/graph/cuthill_mckee_ordering.hpp
// was found; see rcm_none.cpp otherwise).
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <boost/property_map/property_map.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

bool has_rcm() noexcept { return true; }

namespace {

// A directed CSR graph holding both directions of every edge is an undirected graph as far as
// Cuthill-McKee is concerned (it only walks out-edges), at a fraction of adjacency_list's memory.
using Vertex = std::uint32_t;
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                                 boost::no_property, boost::no_property, Vertex,
                                                 std::size_t>;

/// Reverse Cuthill-McKee of one connected component (vertices `members`, global numbers) by
/// Boost: appends the component's vertices in RCM order to `out`. `local` maps a global vertex
/// to its index in `members` for the members (scratch, sized to the whole graph).
void rcm_component(const AdjacencyGraph& g, const std::vector<std::int32_t>& members,
                   std::vector<std::int32_t>& local, std::vector<std::int32_t>& out)
{
    const auto m = members.size();
    for (std::size_t k = 0; k < m; ++k) {
        local[static_cast<std::size_t>(members[k])] = static_cast<std::int32_t>(k);
    }
    std::vector<std::pair<Vertex, Vertex>> edges;
    for (std::size_t k = 0; k < m; ++k) {
        const auto v = static_cast<std::size_t>(members[k]);
        for (auto e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
            const auto w = g.neighbours[static_cast<std::size_t>(e)];
            edges.emplace_back(static_cast<Vertex>(k),
                               static_cast<Vertex>(local[static_cast<std::size_t>(w)]));
        }
    }
    // sources ascend (k), so the edges are sorted as this constructor wants them
    const Graph graph(boost::edges_are_sorted, edges.begin(), edges.end(), static_cast<Vertex>(m));
    std::vector<std::size_t> degree(m);
    for (std::size_t k = 0; k < m; ++k) {
        degree[k] = boost::out_degree(static_cast<Vertex>(k), graph);
    }
    std::vector<boost::default_color_type> colour(m);
    const auto index = boost::get(boost::vertex_index, graph);
    std::vector<Vertex> order(m);
    // Cuthill-McKee written back to front = reverse Cuthill-McKee (Boost's own example does this)
    const auto written_end = boost::cuthill_mckee_ordering(
        graph, order.rbegin(), boost::make_iterator_property_map(colour.begin(), index),
        boost::make_iterator_property_map(degree.begin(), index));
    if (written_end != order.rend()) {
        SPMV_THROW(Error, "Boost cuthill_mckee_ordering numbered " +
                              std::to_string(written_end - order.rbegin()) + " of the " +
                              std::to_string(m) + " vertices of a connected component");
    }
    for (const auto v : order) {
        out.push_back(members[v]);
    }
}

}  // namespace

std::vector<std::int32_t> reverse_cuthill_mckee(const Csr<double, std::int32_t>& a)
{
    const auto g = symmetrised_graph(a);  // InvalidArgument unless square
    const auto n = static_cast<std::size_t>(g.num_vertices());
    // Components one by one, in the order of their smallest vertex. Boost's whole-graph
    // overload would do this too, but it resets the colour of EVERY vertex for each component
    // it starts (sparse_ordering.hpp), which is quadratic in the number of components: a matrix
    // with 10^5 empty rows would take minutes. An empty row/column (no neighbour) is a
    // component of one vertex and keeps its place in that order.
    std::vector<std::int32_t> perm;
    perm.reserve(n);
    std::vector<char> seen(n, 0);
    std::vector<std::int32_t> local(n, 0);
    std::vector<std::int32_t> members;
    for (std::size_t root = 0; root < n; ++root) {
        if (seen[root]) continue;
        members.assign(1, static_cast<std::int32_t>(root));
        seen[root] = 1;
        for (std::size_t head = 0; head < members.size(); ++head) {  // breadth first
            const auto v = static_cast<std::size_t>(members[head]);
            for (auto e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
                const auto w = static_cast<std::size_t>(g.neighbours[static_cast<std::size_t>(e)]);
                if (!seen[w]) {
                    seen[w] = 1;
                    members.push_back(static_cast<std::int32_t>(w));
                }
            }
        }
        if (members.size() == 1) {
            perm.push_back(members[0]);
        } else {
            rcm_component(g, members, local, perm);
        }
    }
    validate_permutation<std::int32_t>(perm, static_cast<std::int32_t>(n), "Boost RCM");
    return perm;
}

}  // namespace spmv::analysis
