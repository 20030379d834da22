#pragma once
/// DeviceMatrix: a sparse matrix "assembled" on the device in one of the GPU formats, behind
/// one type (Barbieri §3: the matrix is built on the host, then assembled into a device format
/// chosen by a "mold"; the solver code never names the format).
///
///   auto host = spmv::build<double>("ell", csr);          // host format (lib/)
///   auto dev  = spmv::gpu::assemble(host);                 // arrays uploaded once
///   dev.spmv(1.0, x, 0.0, y);                              // DeviceVector x, y
///
/// Permuted formats (JDS, pJDS, PELLR, BiJAD, SELL-C-sigma) can leave y in their permuted basis
/// (RowOrder::permuted: y[k] is row row_perm[k]) and un-permute later with unpermute(), a
/// separate kernel whose cost the benchmark reports by itself.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <spmv/any_matrix.hpp>
#include <spmv/gpu/device_vector.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/types.hpp>

namespace spmv::gpu {

/// Precision of the sums of products inside an SpMV kernel.
///  - value_type: the kernel adds in its value type, as the papers' kernels and cuSPARSE do
///    (float matrices sum in float). Every kernel has it; the benchmarks measure it.
///  - double_precision: single-precision storage, double-precision arithmetic. Each product of
///    a float value and a float x entry is exact in double, the row's sum is added in double and
///    rounded to float once, in the store (alpha * sum + beta * y in double). The bytes moved are
///    those of the float kernel. It matters where a row's terms cancel: for a smooth vector
///    (what a Krylov solver's search direction becomes) a Laplacian row 6 p_i - sum p_j is
///    ~cond(A) times smaller than its terms, so a float sum loses ~log10(cond) digits of the
///    product. MPIR-CG's inner float CG needs ~25 % fewer iterations with it (solvers docs).
///    For double matrices it is the same kernel as value_type.
enum class Sums { value_type, double_precision };

/// Where an SpMV with a fused dot product (DeviceOp::apply_dot) leaves x.y: device memory owned
/// by the caller. Each block of the launch writes its partial sum, and the last block adds them
/// in block order (bitwise reproducible) into *result and resets *ticket.
struct DotSink {
    double* partials = nullptr;  ///< one entry per block of the launch
    std::size_t capacity = 0;    ///< entries of partials; a launch needing more throws
    unsigned* ticket = nullptr;  ///< 0 before the launch; 0 again after it
    double* result = nullptr;    ///< x.y, summed in double
    /// When not null and *skip != 0 at the start of the launch, the launch does nothing (y, the
    /// partials and *result keep their values): CG passes its stop flag, so that the SpMV of an
    /// iteration queued after the one that stopped costs no pass over the matrix.
    const int* skip = nullptr;
};

/// What every device format provides to DeviceMatrix (implemented in kernels/src/<format>.cu).
template <typename ValueType>
class DeviceOp {
public:
    virtual ~DeviceOp() = default;
    /// y = alpha A x + beta y on device pointers (x: num_cols, y: num_rows entries).
    /// beta == 0 must not read y. `order` matters only for permuted formats.
    virtual void apply(ValueType alpha, const ValueType* x, ValueType beta, ValueType* y,
                       RowOrder order, StreamRef stream) const = 0;
    /// apply() with Sums::double_precision (see Sums). Returns false, doing nothing, when the
    /// format's kernel has no such path (then only apply() exists).
    virtual bool apply_double_sums(ValueType alpha, const ValueType* x, ValueType beta,
                                   ValueType* y, RowOrder order, StreamRef stream) const
    {
        (void)alpha, (void)x, (void)beta, (void)y, (void)order, (void)stream;
        return false;
    }
    /// Whether apply_double_sums runs (true for every double op).
    virtual bool has_double_sums() const noexcept { return false; }
    /// y = A x and, in the same launch, *sink.result = sum_i x_i y_i in double (y_i as stored):
    /// CG's q = A p with p.q, without a second pass over p and q. Square matrices; x and y in
    /// the same basis (`order`). `sums` as in apply_double_sums. Returns false, doing nothing,
    /// when the format's kernel has no fused path (or none for these sums).
    virtual bool apply_dot(const ValueType* x, ValueType* y, RowOrder order, Sums sums,
                           const DotSink& sink, StreamRef stream) const
    {
        (void)x, (void)y, (void)order, (void)sums, (void)sink, (void)stream;
        return false;
    }
    /// Whether apply_dot runs (with Sums::value_type; for double sums on float also
    /// has_double_sums()).
    virtual bool has_dot() const noexcept { return false; }
    /// Device copy of row_perm (row_perm[k] = original row stored k-th), or nullptr.
    virtual const std::int32_t* device_row_perm() const noexcept { return nullptr; }
    /// Bytes this matrix holds on the device (all arrays, padding and scratch included).
    virtual std::size_t device_bytes() const noexcept = 0;
};

template <typename ValueType>
class DeviceMatrix {
public:
    using value_type = ValueType;

    DeviceMatrix() = default;
    /// Wraps an assembled op; `format` is the host registry name, `variant` the GPU variant.
    DeviceMatrix(std::unique_ptr<DeviceOp<ValueType>> op, std::string format, std::string variant,
                 std::int32_t num_rows, std::int32_t num_cols, std::int64_t nnz);

    explicit operator bool() const noexcept { return op_ != nullptr; }
    std::int32_t num_rows() const noexcept { return num_rows_; }
    std::int32_t num_cols() const noexcept { return num_cols_; }
    std::int64_t nnz() const noexcept { return nnz_; }
    const std::string& format() const noexcept { return format_; }
    const std::string& variant() const noexcept { return variant_; }
    bool permuted() const noexcept { return op_ && op_->device_row_perm() != nullptr; }
    std::size_t device_bytes() const noexcept { return op_ ? op_->device_bytes() : 0; }
    const DeviceOp<ValueType>& op() const;

    /// y = alpha A x + beta y on device pointers. Asynchronous on `stream`.
    void spmv(ValueType alpha, const ValueType* x, ValueType beta, ValueType* y,
              RowOrder order = RowOrder::original, StreamRef stream = {}) const;
    /// The same with the kernel's sums in `sums` precision (see Sums). Throws InvalidArgument
    /// for Sums::double_precision on a float matrix whose kernel lacks that path
    /// (has_double_sums() says which).
    void spmv(ValueType alpha, const ValueType* x, ValueType beta, ValueType* y, RowOrder order,
              StreamRef stream, Sums sums) const;
    /// Whether spmv(..., Sums::double_precision) runs: always for double; for float, the
    /// CSR (scalar, vector), SELL and PELLR kernels.
    bool has_double_sums() const noexcept;
    /// y = A x with x.y in the same launch (DeviceOp::apply_dot), asynchronous on `stream`.
    /// Returns false, launching nothing, when the format has no fused path for these sums
    /// (has_dot() says which); the caller then runs the SpMV and the dot product separately.
    /// Throws DimensionMismatch for a rectangular matrix.
    bool spmv_dot(const ValueType* x, ValueType* y, RowOrder order, StreamRef stream, Sums sums,
                  const DotSink& sink) const;
    bool has_dot(Sums sums = Sums::value_type) const noexcept;
    /// Same on DeviceVectors: x is synced to the device if stale; y is synced only when
    /// beta != 0 (beta == 0 overwrites it), and is marked valid on the device afterwards.
    /// Throws DimensionMismatch for wrong sizes.
    void spmv(ValueType alpha, DeviceVector<ValueType>& x, ValueType beta,
              DeviceVector<ValueType>& y, RowOrder order = RowOrder::original) const;

    /// y[row_perm[k]] = y_permuted[k]: from the permuted basis back to the original one.
    /// Throws InvalidArgument for a format that does not permute.
    void unpermute(const ValueType* y_permuted, ValueType* y, StreamRef stream = {}) const;
    /// y_permuted[k] = y[row_perm[k]]: into the permuted basis (e.g. y before beta != 0).
    void permute(const ValueType* y, ValueType* y_permuted, StreamRef stream = {}) const;
    void unpermute(DeviceVector<ValueType>& y_permuted, DeviceVector<ValueType>& y) const;

private:
    std::unique_ptr<DeviceOp<ValueType>> op_;
    std::string format_;
    std::string variant_;
    std::int32_t num_rows_ = 0;
    std::int32_t num_cols_ = 0;
    std::int64_t nnz_ = 0;
};

/// Uploads a host matrix into its device format. `variant` picks a GPU variant by name
/// (kernel_variants() in spmv/gpu/variants.hpp; e.g. "csr_vector"); empty picks the first
/// (default) variant that runs this host format. Throws InvalidArgument when no GPU kernel
/// exists for the format (or the variant does not run it), OutOfDeviceMemory when the arrays
/// do not fit, NotCompiled in a build without CUDA.
template <typename ValueType>
DeviceMatrix<ValueType> assemble(const AnyMatrix<ValueType>& m, std::string_view variant = {});

}  // namespace spmv::gpu
