// Built when libmetis-dev was not found: nested dissection says so (NotCompiled).
#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>

namespace spmv::analysis {

bool has_nested_dissection() noexcept { return false; }

std::vector<std::int32_t> nested_dissection(const Csr<double, std::int32_t>&)
{
    SPMV_THROW(NotCompiled, "nested dissection needs METIS: this build was configured without "
                            "libmetis-dev (apt-get install libmetis-dev, then re-run cmake)");
}

}  // namespace spmv::analysis
