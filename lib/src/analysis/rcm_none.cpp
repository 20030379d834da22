// Built when Boost.Graph was not found: reverse Cuthill-McKee says so (NotCompiled).
#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

bool has_rcm() noexcept { return false; }

std::vector<std::int32_t> reverse_cuthill_mckee(const Csr<double, std::int32_t>&)
{
    SPMV_THROW(NotCompiled, "reverse Cuthill-McKee needs Boost.Graph: this build was configured "
                            "without it (apt-get install libboost-graph-dev, then re-run cmake)");
}

}  // namespace spmv::analysis
