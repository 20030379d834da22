#pragma once
/// The GPU kernel registry: every GPU SpMV available in this build, by name.
///
/// A variant runs one host format's layout (`format`, a name of spmv::formats()) with one kernel.
/// Our own kernels are named after the host format ("csr", "ell", "coo", ...) plus extra
/// variants of the same layout ("csr_vector"); the cuSPARSE baselines are "cusparse_*".
/// Each variant is prepared from CSR + FormatParams (the host conversion is never timed) and
/// yields a DeviceMatrix that can be run, verified (verify.hpp) and timed (bench.hpp).
///
/// Recipe: adding the GPU kernel of a host format `xyz` (e.g. jds, jds_csr, pjds, pellr, biell,
/// bijad, sell) takes two files and one line, no other edit:
///  1. kernels/include/spmv/gpu/xyz.hpp: `struct DeviceXyz<V>` (DeviceBuffers + sizes +
///     `std::size_t device_bytes() const`; permuted formats add `DeviceBuffer<int32_t> row_perm`),
///     and the two entry points, each written once as a macro of V and the default hook D and
///     declared with SPMV_GPU_DECLARE_TEMPLATE (spmv/gpu/declare.hpp; copy spmv/gpu/ell.hpp):
///        #define SPMV_GPU_DECLARE_XYZ_UPLOAD(V, D) DeviceXyz<V> upload(const Xyz<V, int32_t>& a)
///        SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_XYZ_UPLOAD, "xyz");
///        #define SPMV_GPU_DECLARE_XYZ_SPMV(V, D)  (continued with backslashes:)
///            void spmv(const DeviceXyz<V>& a, V alpha, const V* x, V beta, V* y,
///                RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
///        SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_XYZ_SPMV, "xyz");
///     Plain C++ only. Without CUDA these lines are the stubs that throw NotCompiled: the build
///     without CUDA needs nothing else.
///  2. kernels/src/xyz.cu: `xyz_spmv_kernel` (one-line comment naming the thread mapping), the
///     launcher, upload() (call ensure_device_memory("xyz", bytes) before allocating), each
///     followed by SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_XYZ_...); and
///     `template <typename V> std::unique_ptr<DeviceOp<V>> assemble_xyz(const AnyMatrix<V>&)` in
///     namespace spmv::gpu::detail returning nullptr when the matrix holds another format
///     (detail::alternative<Xyz<V, int32_t>>(m)), else detail::make_op<V, /*permuted=*/true>(
///     upload(*f), launcher); end the file with SPMV_INSTANTIATE_ASSEMBLE(xyz). Copy ell.cu.
///     For RowOrder::original a permuted format writes y[row_perm[k]] itself (or runs
///     unpermute_rows from spmv/gpu/permutation.hpp); RowOrder::permuted leaves y[k].
///     Optional: a float kernel with double sums (Sums::double_precision in device_matrix.hpp):
///     template the kernel on its sum type Acc (detail::product<Acc>, axpby_store/store_row
///     take an Acc sum) and, for V = float, pass a second launcher running Acc = double to
///     make_op (see csr.cu, sell.cu, pellr.cu).
///  3. One line in kernels/src/variant_list.inc, directly ABOVE the line holding
///     "[gpu variants: keep this marker]":
///        SPMV_GPU_VARIANT(xyz, "xyz", "xyz", "one-line description naming the thread mapping")
///     (identifier, variant name, host registry name, description). variants.cpp generates the
///     declaration of detail::assemble_xyz and the registry entry from it; without CUDA the
///     entry keeps its name and prepare() throws NotCompiled.
///  Another variant of an existing layout (like csr_vector or sell_split) is steps 2 and 3 only.
///  The .cu is picked up by a glob (re-run cmake); the tests enumerate kernel_variants():
///  tests/gpu/test_variants_gpu.cpp then checks the new variant on every test matrix in float
///  and double, and tests/gpu/test_permuted_kernels_gpu.cpp a permuted one in both row orders.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include <spmv/any_matrix.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/registry.hpp>

namespace spmv::gpu {

template <typename ValueType>
using AssembleFn = std::unique_ptr<DeviceOp<ValueType>> (*)(const AnyMatrix<ValueType>&);

struct KernelVariant {
    std::string_view name;               ///< e.g. "csr", "csr_vector", "cusparse_csr_alg1"
    std::string_view format;             ///< host registry name of the layout it runs, e.g. "csr"
    std::string_view description;        ///< one line, names the thread mapping
    bool baseline;                       ///< a cuSPARSE reference rather than one of our kernels
    AssembleFn<double> assemble_double;  ///< nullptr in a build without CUDA
    AssembleFn<float> assemble_float;
};

/// Every GPU variant whose host format is registered (spmv::formats()), ours first, then the
/// cuSPARSE baselines. In a build without CUDA the list is the same, but preparing throws
/// NotCompiled.
std::span<const KernelVariant> kernel_variants();

/// Looks a variant up by name; throws InvalidArgument listing the valid names.
const KernelVariant& find_variant(std::string_view name);

/// Uploads an already built host matrix with this variant's kernel. Throws InvalidArgument when
/// `m` holds another format than v.format.
template <typename ValueType>
DeviceMatrix<ValueType> assemble(const KernelVariant& v, const AnyMatrix<ValueType>& m);

/// Builds v.format from CSR on the host (spmv::build), then assembles it on the device.
template <typename ValueType>
DeviceMatrix<ValueType> prepare(const KernelVariant& v, const Csr<ValueType, std::int32_t>& a,
                                const FormatParams& params = {});

/// prepare(find_variant(name), a, params).
template <typename ValueType>
DeviceMatrix<ValueType> prepare(std::string_view name, const Csr<ValueType, std::int32_t>& a,
                                const FormatParams& params = {});

}  // namespace spmv::gpu
