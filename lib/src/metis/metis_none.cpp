// Built when libmetis-dev was not found: the METIS partition says so (NotCompiled).
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

namespace detail {
Partition owner_partition(std::vector<std::int32_t> owner, int ranks);
}

bool has_metis() noexcept { return false; }

template <typename ValueType>
Partition partition_metis(const Csr<ValueType, std::int32_t>& a, int ranks, int)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    if (ranks == 1) {
        auto p = detail::owner_partition(std::vector<std::int32_t>(
                                             static_cast<std::size_t>(a.num_rows), 0), 1);
        p.kind = PartitionKind::metis;
        return p;
    }
    SPMV_THROW(NotCompiled, "the METIS partition needs METIS: this build was configured without "
                            "libmetis-dev (apt-get install libmetis-dev, then re-run cmake)");
}

template Partition partition_metis<double>(const Csr<double, std::int32_t>&, int, int);
template Partition partition_metis<float>(const Csr<float, std::int32_t>&, int, int);

}  // namespace spmv::dist
