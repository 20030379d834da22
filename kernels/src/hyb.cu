// HYB: the ELL kernel (ell.cu) on the first K entries of each row, then the COO kernel (coo.cu)
// with beta = 1 on the rest. The ELL pass's load kind for the matrix arrays (launch.cuh,
// ld_matrix) is decided from all of HYB's arrays, the COO part included.
#include <cstdint>

#include <spmv/gpu/hyb.hpp>

#include "ell_launch.hpp"
#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {

template <typename V>
DeviceHyb<V> upload(const Hyb<V, std::int32_t>& a)
{
    ensure_device_memory("hyb", a.ell_col_idxs.size() * sizeof(std::int32_t) +
                                    a.ell_values.size() * sizeof(V) +
                                    a.coo_values.size() * (2 * sizeof(std::int32_t) + sizeof(V)));
    DeviceHyb<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.ell.num_rows = a.num_rows;
    d.ell.num_cols = a.num_cols;
    d.ell.width = a.ell_width;
    d.ell.stride = a.stride;
    d.ell.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.ell_col_idxs, "hyb ell col_idxs");
    d.ell.values = DeviceBuffer<V>::from_host(a.ell_values, "hyb ell values");
    // With K = 0 there is no ELL pass: the COO pass must also write the rows it does not hold.
    d.coo = upload_coo<V>(a.num_rows, a.num_cols, a.coo_row_idxs, a.coo_col_idxs, a.coo_values,
                          a.ell_width == 0, "hyb");
    return d;
}

template <typename V>
void spmv(const DeviceHyb<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.ell.width > 0) {
        detail::launch_ell(a.ell, alpha, x, beta, y, stream, detail::stream_matrix_loads_for<V>(a));
        if (a.coo.nnz > 0) {
            spmv(a.coo, alpha, x, V{1}, y, stream);
        }
    } else {
        spmv(a.coo, alpha, x, beta, y, stream);
    }
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_HYB_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_HYB_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_hyb(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Hyb<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceHyb<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(hyb)
