// cuSPARSE baselines (CSR ALG1/ALG2, COO ALG1/ALG2, sliced ELL ALG1) behind DeviceOp.
// Their layouts are built from our CSR on the host, once, at assemble time: only
// cusparseSpMV itself is ever timed. The workspace and cusparseSpMV_preprocess also happen at
// assemble time.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cusparse.h>
#include <vector>

#include <spmv/gpu/memory.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace detail {
namespace {

constexpr int scale_block_size = 256;
constexpr std::int32_t sell_slice = 32;

// One thread per row: y = beta * y (beta == 0 writes 0): SpMV with a matrix without entries.
template <typename V>
__global__ void __launch_bounds__(scale_block_size)
    scale_kernel(std::int32_t n, V beta, V* __restrict__ y)
{
    const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = beta == V{0} ? V{0} : beta * y[i];
    }
}

template <typename V>
constexpr cudaDataType value_type_of()
{
    return sizeof(V) == 8 ? CUDA_R_64F : CUDA_R_32F;
}

enum class Layout { csr, coo, sell };

template <typename V>
class CusparseOp final : public DeviceOp<V> {
public:
    CusparseOp(const Csr<V, std::int32_t>& a, Layout layout, cusparseSpMVAlg_t alg,
               const char* what)
        : rows_(a.num_rows),
          cols_(a.num_cols),
          nnz_(static_cast<std::int64_t>(a.values.size())),
          alg_(alg)
    {
        if (rows_ == 0 || nnz_ == 0) {
            return;  // apply() scales y itself; cuSPARSE is not asked about empty matrices
        }
        build_layout(a, layout, what);
        try {
            create_descriptors(layout);
        } catch (...) {
            destroy();
            throw;
        }
    }
    ~CusparseOp() override { destroy(); }
    CusparseOp(const CusparseOp&) = delete;
    CusparseOp& operator=(const CusparseOp&) = delete;

    void apply(V alpha, const V* x, V beta, V* y, RowOrder, StreamRef stream) const override
    {
        if (rows_ == 0) {
            return;
        }
        if (mat_ == nullptr) {
            const int b = block_size_for(rows_, scale_block_size);
            scale_kernel<<<ceil_div(rows_, b), b, 0, native(stream)>>>(rows_, beta, y);
            SPMV_CUDA_CHECK(cudaGetLastError());
            return;
        }
        SPMV_CUSPARSE_CHECK(cusparseSetStream(handle_, native(stream)));
        SPMV_CUSPARSE_CHECK(cusparseDnVecSetValues(vec_x_, const_cast<V*>(x)));
        SPMV_CUSPARSE_CHECK(cusparseDnVecSetValues(vec_y_, y));
        SPMV_CUSPARSE_CHECK(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat_,
                                         vec_x_, &beta, vec_y_, value_type_of<V>(), alg_,
                                         workspace_.data()));
    }

    std::size_t device_bytes() const noexcept override
    {
        return idx_a_.bytes() + idx_b_.bytes() + values_.bytes() + workspace_.bytes();
    }

private:
    // idx_a_: row_ptrs (CSR), row indices (COO) or slice offsets (SELL); idx_b_: column indices.
    void build_layout(const Csr<V, std::int32_t>& a, Layout layout, const char* what)
    {
        std::vector<std::int32_t> host_a;
        std::vector<std::int32_t> host_b;
        std::vector<V> host_v;
        const std::vector<std::int32_t>* pa = &a.row_ptrs;
        const std::vector<std::int32_t>* pb = &a.col_idxs;
        const std::vector<V>* pv = &a.values;
        if (layout == Layout::coo) {
            host_a.resize(a.values.size());
            for (std::int32_t i = 0; i < a.num_rows; ++i) {
                std::fill(host_a.begin() + a.row_ptrs[i], host_a.begin() + a.row_ptrs[i + 1], i);
            }
            pa = &host_a;
        } else if (layout == Layout::sell) {
            // Slices of 32 rows in natural order, column-major inside a slice, each slice padded
            // to its longest row and the last slice to 32 rows (padding: index -1, value 0), as
            // in the cuSPARSE SELL sample.
            const std::int32_t slices = ceil_div(a.num_rows, sell_slice);
            host_a.assign(static_cast<std::size_t>(slices) + 1, 0);
            for (std::int32_t s = 0; s < slices; ++s) {
                std::int32_t width = 0;
                for (std::int32_t i = s * sell_slice;
                     i < std::min(a.num_rows, (s + 1) * sell_slice); ++i) {
                    width = std::max(width, a.row_ptrs[i + 1] - a.row_ptrs[i]);
                }
                const std::int64_t next =
                    std::int64_t{host_a[s]} + std::int64_t{width} * sell_slice;
                SPMV_EXPECTS(next <= INT32_MAX,
                             "cusparse_sell: more slots than 32-bit offsets hold");
                host_a[s + 1] = static_cast<std::int32_t>(next);
            }
            host_b.assign(static_cast<std::size_t>(host_a[slices]), -1);
            host_v.assign(host_b.size(), V{0});
            for (std::int32_t i = 0; i < a.num_rows; ++i) {
                const std::int32_t s = i / sell_slice;
                const std::int32_t lane = i % sell_slice;
                for (std::int32_t k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                    const auto slot = static_cast<std::size_t>(host_a[s]) +
                                      static_cast<std::size_t>(k - a.row_ptrs[i]) * sell_slice +
                                      static_cast<std::size_t>(lane);
                    host_b[slot] = a.col_idxs[k];
                    host_v[slot] = a.values[k];
                }
            }
            pa = &host_a;
            pb = &host_b;
            pv = &host_v;
        }
        ensure_device_memory(what, pa->size() * sizeof(std::int32_t) +
                                       pb->size() * sizeof(std::int32_t) + pv->size() * sizeof(V));
        idx_a_ = DeviceBuffer<std::int32_t>::from_host(*pa, what);
        idx_b_ = DeviceBuffer<std::int32_t>::from_host(*pb, what);
        values_ = DeviceBuffer<V>::from_host(*pv, what);
    }

    void create_descriptors(Layout layout)
    {
        SPMV_CUSPARSE_CHECK(cusparseCreate(&handle_));
        const auto vt = value_type_of<V>();
        switch (layout) {
            case Layout::csr:
                SPMV_CUSPARSE_CHECK(cusparseCreateCsr(
                    &mat_, rows_, cols_, nnz_, idx_a_.data(), idx_b_.data(), values_.data(),
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
                break;
            case Layout::coo:
                SPMV_CUSPARSE_CHECK(cusparseCreateCoo(
                    &mat_, rows_, cols_, nnz_, idx_a_.data(), idx_b_.data(), values_.data(),
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
                break;
            case Layout::sell:
                SPMV_CUSPARSE_CHECK(cusparseCreateSlicedEll(
                    &mat_, rows_, cols_, nnz_, static_cast<std::int64_t>(values_.size()),
                    sell_slice, idx_a_.data(), idx_b_.data(), values_.data(), CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
                break;
        }
        // Scratch vectors for the workspace query and the preprocessing; apply() points the
        // descriptors at the caller's vectors.
        DeviceBuffer<V> x(static_cast<std::size_t>(std::max(cols_, 1)), "cusparse scratch");
        DeviceBuffer<V> y(static_cast<std::size_t>(rows_), "cusparse scratch");
        x.fill(V{0});
        y.fill(V{0});
        SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_x_, cols_, x.data(), vt));
        SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&vec_y_, rows_, y.data(), vt));
        const V one{1};
        const V zero{0};
        std::size_t bytes = 0;
        SPMV_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                    mat_, vec_x_, &zero, vec_y_, vt, alg_, &bytes));
        workspace_ = DeviceBuffer<std::byte>(bytes, "cusparse workspace");
        SPMV_CUSPARSE_CHECK(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                    mat_, vec_x_, &zero, vec_y_, vt, alg_,
                                                    workspace_.data()));
        SPMV_CUDA_CHECK(cudaDeviceSynchronize());  // before the scratch vectors go away
    }

    void destroy() noexcept
    {
        if (vec_x_ != nullptr) {
            cusparseDestroyDnVec(vec_x_);
            vec_x_ = nullptr;
        }
        if (vec_y_ != nullptr) {
            cusparseDestroyDnVec(vec_y_);
            vec_y_ = nullptr;
        }
        if (mat_ != nullptr) {
            cusparseDestroySpMat(mat_);
            mat_ = nullptr;
        }
        if (handle_ != nullptr) {
            cusparseDestroy(handle_);
            handle_ = nullptr;
        }
    }

    std::int32_t rows_;
    std::int32_t cols_;
    std::int64_t nnz_;
    cusparseSpMVAlg_t alg_;
    DeviceBuffer<std::int32_t> idx_a_;
    DeviceBuffer<std::int32_t> idx_b_;
    DeviceBuffer<V> values_;
    mutable DeviceBuffer<std::byte> workspace_;  // cuSPARSE scratch: written by every SpMV
    cusparseHandle_t handle_ = nullptr;
    cusparseSpMatDescr_t mat_ = nullptr;
    cusparseDnVecDescr_t vec_x_ = nullptr;
    cusparseDnVecDescr_t vec_y_ = nullptr;
};

template <typename V>
std::unique_ptr<DeviceOp<V>> make_cusparse(const AnyMatrix<V>& m, Layout layout,
                                           cusparseSpMVAlg_t alg, const char* what)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return std::make_unique<CusparseOp<V>>(*f, layout, alg, what);
}

}  // namespace

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_cusparse_csr_alg1(const AnyMatrix<V>& m)
{
    return make_cusparse(m, Layout::csr, CUSPARSE_SPMV_CSR_ALG1, "cusparse_csr_alg1");
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_cusparse_csr_alg2(const AnyMatrix<V>& m)
{
    return make_cusparse(m, Layout::csr, CUSPARSE_SPMV_CSR_ALG2, "cusparse_csr_alg2");
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_cusparse_coo_alg1(const AnyMatrix<V>& m)
{
    return make_cusparse(m, Layout::coo, CUSPARSE_SPMV_COO_ALG1, "cusparse_coo_alg1");
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_cusparse_coo_alg2(const AnyMatrix<V>& m)
{
    return make_cusparse(m, Layout::coo, CUSPARSE_SPMV_COO_ALG2, "cusparse_coo_alg2");
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_cusparse_sell(const AnyMatrix<V>& m)
{
    return make_cusparse(m, Layout::sell, CUSPARSE_SPMV_SELL_ALG1, "cusparse_sell");
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(cusparse_csr_alg1)
SPMV_INSTANTIATE_ASSEMBLE(cusparse_csr_alg2)
SPMV_INSTANTIATE_ASSEMBLE(cusparse_coo_alg1)
SPMV_INSTANTIATE_ASSEMBLE(cusparse_coo_alg2)
SPMV_INSTANTIATE_ASSEMBLE(cusparse_sell)
