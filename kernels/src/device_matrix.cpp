// DeviceMatrix: host logic only (the work happens in the DeviceOp of each format).
#include <string>
#include <type_traits>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/permutation.hpp>

namespace spmv::gpu {

template <typename V>
DeviceMatrix<V>::DeviceMatrix(std::unique_ptr<DeviceOp<V>> op, std::string format,
                              std::string variant, std::int32_t num_rows, std::int32_t num_cols,
                              std::int64_t nnz)
    : op_(std::move(op)),
      format_(std::move(format)),
      variant_(std::move(variant)),
      num_rows_(num_rows),
      num_cols_(num_cols),
      nnz_(nnz)
{}

template <typename V>
const DeviceOp<V>& DeviceMatrix<V>::op() const
{
    SPMV_EXPECTS(op_ != nullptr, "DeviceMatrix is empty (not assembled)");
    return *op_;
}

template <typename V>
void DeviceMatrix<V>::spmv(V alpha, const V* x, V beta, V* y, RowOrder order,
                           StreamRef stream) const
{
    op().apply(alpha, x, beta, y, order, stream);
}

template <typename V>
void DeviceMatrix<V>::spmv(V alpha, const V* x, V beta, V* y, RowOrder order, StreamRef stream,
                           Sums sums) const
{
    if (sums == Sums::value_type || std::is_same_v<V, double>) {
        op().apply(alpha, x, beta, y, order, stream);
        return;
    }
    if (!op().apply_double_sums(alpha, x, beta, y, order, stream)) {
        SPMV_THROW(InvalidArgument, "GPU variant " + variant_ +
                                        " has no kernel with double-precision sums for float "
                                        "matrices (DeviceMatrix::has_double_sums)");
    }
}

template <typename V>
bool DeviceMatrix<V>::spmv_dot(const V* x, V* y, RowOrder order, StreamRef stream, Sums sums,
                               const DotSink& sink) const
{
    if (num_rows_ != num_cols_) {
        SPMV_THROW(DimensionMismatch, "spmv_dot needs a square matrix, got " +
                                          std::to_string(num_rows_) + " x " +
                                          std::to_string(num_cols_));
    }
    if (!has_dot(sums)) {
        return false;
    }
    const Sums effective = std::is_same_v<V, double> ? Sums::value_type : sums;
    return op().apply_dot(x, y, order, effective, sink, stream);
}

template <typename V>
bool DeviceMatrix<V>::has_dot(Sums sums) const noexcept
{
    return op_ != nullptr && op_->has_dot() && (sums == Sums::value_type || has_double_sums());
}

template <typename V>
bool DeviceMatrix<V>::has_double_sums() const noexcept
{
    if constexpr (std::is_same_v<V, double>) {
        return op_ != nullptr;
    } else {
        return op_ != nullptr && op_->has_double_sums();
    }
}

template <typename V>
void DeviceMatrix<V>::spmv(V alpha, DeviceVector<V>& x, V beta, DeviceVector<V>& y,
                           RowOrder order) const
{
    check_spmv_dims(num_rows_, num_cols_, x.size(), y.size());
    const V* xd = x.read_device();
    V* yd = beta == V{0} ? y.device_for_overwrite() : y.device();
    spmv(alpha, xd, beta, yd, order);
}

template <typename V>
void DeviceMatrix<V>::unpermute(const V* y_permuted, V* y, StreamRef stream) const
{
    const auto* perm = op().device_row_perm();
    SPMV_EXPECTS(perm != nullptr, "unpermute: format " + format_ + " does not permute rows");
    unpermute_rows(perm, y_permuted, y, num_rows_, stream);
}

template <typename V>
void DeviceMatrix<V>::permute(const V* y, V* y_permuted, StreamRef stream) const
{
    const auto* perm = op().device_row_perm();
    SPMV_EXPECTS(perm != nullptr, "permute: format " + format_ + " does not permute rows");
    permute_rows(perm, y, y_permuted, num_rows_, stream);
}

template <typename V>
void DeviceMatrix<V>::unpermute(DeviceVector<V>& y_permuted, DeviceVector<V>& y) const
{
    check_spmv_dims(num_rows_, num_rows_, y_permuted.size(), y.size());
    unpermute(y_permuted.read_device(), y.device_for_overwrite());
}

template class DeviceMatrix<float>;
template class DeviceMatrix<double>;

}  // namespace spmv::gpu
