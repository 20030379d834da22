// The GPU kernel registry (host logic; built with and without CUDA).
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/variants.hpp>

namespace spmv::gpu {
namespace detail {

// Declarations of every assemble_<id> named in the list (defined in kernels/src/*.cu).
#define SPMV_GPU_VARIANT(id, name, format, description) \
    template <typename V>                               \
    std::unique_ptr<DeviceOp<V>> assemble_##id(const AnyMatrix<V>&);
#define SPMV_GPU_BASELINE(id, name, format, description) \
    SPMV_GPU_VARIANT(id, name, format, description)
#include "variant_list.inc"
#undef SPMV_GPU_VARIANT
#undef SPMV_GPU_BASELINE

}  // namespace detail

namespace {

// Without CUDA the functions do not exist: the entries keep their names, prepare throws.
#ifdef SPMV_KERNELS_COMPILED
#define SPMV_GPU_FN(id, V) &detail::assemble_##id<V>
#else
#define SPMV_GPU_FN(id, V) nullptr
#endif

const std::vector<KernelVariant>& all_variants()
{
    static const std::vector<KernelVariant> list = {
#define SPMV_GPU_VARIANT(id, name, format, description) \
    {name, format, description, false, SPMV_GPU_FN(id, double), SPMV_GPU_FN(id, float)},
#define SPMV_GPU_BASELINE(id, name, format, description) \
    {name, format, description, true, SPMV_GPU_FN(id, double), SPMV_GPU_FN(id, float)},
#include "variant_list.inc"
#undef SPMV_GPU_VARIANT
#undef SPMV_GPU_BASELINE
    };
    return list;
}

bool host_format_registered(std::string_view name)
{
    for (const auto& f : spmv::formats()) {
        if (f.name == name) {
            return true;
        }
    }
    return false;
}

template <typename V>
AssembleFn<V> assemble_fn(const KernelVariant& v)
{
    if constexpr (std::is_same_v<V, double>) {
        return v.assemble_double;
    } else {
        return v.assemble_float;
    }
}

}  // namespace

std::span<const KernelVariant> kernel_variants()
{
    static const std::vector<KernelVariant> registered = [] {
        std::vector<KernelVariant> r;
        for (const auto& v : all_variants()) {
            if (host_format_registered(v.format)) {
                r.push_back(v);
            }
        }
        return r;
    }();
    return registered;
}

const KernelVariant& find_variant(std::string_view name)
{
    std::string names;
    for (const auto& v : kernel_variants()) {
        if (v.name == name) {
            return v;
        }
        names += (names.empty() ? "" : " ") + std::string(v.name);
    }
    SPMV_THROW(InvalidArgument, "unknown GPU variant '" + std::string(name) + "'; known: " + names);
}

template <typename V>
DeviceMatrix<V> assemble(const KernelVariant& v, const AnyMatrix<V>& m)
{
    const auto fn = assemble_fn<V>(v);
    if (fn == nullptr) {
        SPMV_THROW(NotCompiled, "GPU variant " + std::string(v.name) +
                                    ": SpMV Lab was built without CUDA (SPMV_ENABLE_CUDA=OFF or "
                                    "no nvcc)");
    }
    auto op = fn(m);
    if (!op) {
        SPMV_THROW(InvalidArgument, "GPU variant " + std::string(v.name) + " runs the " +
                                        std::string(v.format) +
                                        " format, but the matrix holds another format");
    }
    return DeviceMatrix<V>(std::move(op), std::string(v.format), std::string(v.name), num_rows(m),
                           num_cols(m), nnz(m));
}

template <typename V>
DeviceMatrix<V> assemble(const AnyMatrix<V>& m, std::string_view variant)
{
    if (!variant.empty()) {
        return assemble(find_variant(variant), m);
    }
    std::string tried;
    for (const auto& v : kernel_variants()) {
        if (v.baseline) {
            continue;
        }
        const auto fn = assemble_fn<V>(v);
        if (fn == nullptr) {
            SPMV_THROW(NotCompiled,
                       "SpMV Lab was built without CUDA (SPMV_ENABLE_CUDA=OFF or no nvcc)");
        }
        if (auto op = fn(m)) {
            return DeviceMatrix<V>(std::move(op), std::string(v.format), std::string(v.name),
                                   num_rows(m), num_cols(m), nnz(m));
        }
        tried += (tried.empty() ? "" : " ") + std::string(v.format);
    }
    SPMV_THROW(InvalidArgument,
               "no GPU kernel for this matrix format yet; formats with GPU kernels: " + tried);
}

template <typename V>
DeviceMatrix<V> prepare(const KernelVariant& v, const Csr<V, std::int32_t>& a,
                        const FormatParams& params)
{
    return assemble(v, spmv::build<V>(v.format, a, params));
}

template <typename V>
DeviceMatrix<V> prepare(std::string_view name, const Csr<V, std::int32_t>& a,
                        const FormatParams& params)
{
    return prepare(find_variant(name), a, params);
}

#define SPMV_INSTANTIATE_VARIANTS(V)                                                       \
    template DeviceMatrix<V> assemble<V>(const KernelVariant&, const AnyMatrix<V>&);       \
    template DeviceMatrix<V> assemble<V>(const AnyMatrix<V>&, std::string_view);           \
    template DeviceMatrix<V> prepare<V>(const KernelVariant&, const Csr<V, std::int32_t>&, \
                                        const FormatParams&);                              \
    template DeviceMatrix<V> prepare<V>(std::string_view, const Csr<V, std::int32_t>&,     \
                                        const FormatParams&);

SPMV_INSTANTIATE_VARIANTS(float)
SPMV_INSTANTIATE_VARIANTS(double)

}  // namespace spmv::gpu
