#pragma once
/// A GPU entry point is written once (Ginkgo's GKO_DECLARE_..._KERNEL,
/// GKO_INSTANTIATE_FOR_EACH_VALUE_TYPE and GKO_STUB_VALUE_TYPE; core/device_hooks/cuda_hooks.cpp).
///
/// A public header spells each templated function defined in a kernels/src/*.cu file as a macro
/// of its value type V and a default-argument hook D, then declares it:
///
///     #define SPMV_GPU_DECLARE_ELL_SPMV(V, D)  (continued with backslashes:)
///         void spmv(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y,
///             StreamRef stream D(= {}))
///     SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_ELL_SPMV, "ell");
///
/// and the .cu file that defines the template ends with its explicit instantiation:
///
///     SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELL_SPMV);
///
/// With CUDA (SPMV_KERNELS_COMPILED, set by kernels/CMakeLists.txt) SPMV_GPU_DECLARE_TEMPLATE is
/// the template's declaration. Without CUDA it is the template's definition: a stub that throws
/// spmv::NotCompiled naming `what`. Declaration, instantiation and stub come from the one macro,
/// so no hand-kept stub list can drift from the kernels, and the build without CUDA needs no line
/// per format anywhere (kernels/src/stubs.cpp keeps only the runtime: device, memory, streams).
/// `D(...)` keeps a default argument in the declaration and drops it from the explicit
/// instantiation, which may not repeat it.
#include <string>
#include <string_view>

#include <spmv/error.hpp>

/// Keeps a default argument (the declaration).
#define SPMV_GPU_WITH_DEFAULT(...) __VA_ARGS__
/// Drops a default argument (an explicit instantiation).
#define SPMV_GPU_NO_DEFAULT(...)

/// Explicit instantiation of a declaration macro for every value type (in the .cu file).
#define SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(declaration) \
    template declaration(float, SPMV_GPU_NO_DEFAULT);         \
    template declaration(double, SPMV_GPU_NO_DEFAULT)

namespace spmv::gpu::detail {

/// Throws NotCompiled: `what` was called in a build without CUDA.
[[noreturn]] inline void not_compiled(std::string_view what)
{
    SPMV_THROW(NotCompiled, std::string(what) +
                                ": SpMV Lab was built without CUDA (SPMV_ENABLE_CUDA=OFF or no "
                                "nvcc)");
}

}  // namespace spmv::gpu::detail

// clang-format off
#ifdef SPMV_KERNELS_COMPILED
/// The template's declaration (its definition and instantiation are in the .cu file).
#define SPMV_GPU_DECLARE_TEMPLATE(declaration, what) \
    template <typename ValueType>                    \
    declaration(ValueType, SPMV_GPU_WITH_DEFAULT)
#else
/// Without CUDA: the template's definition, a stub that throws NotCompiled (the parameters it
/// ignores are named for the reader, hence the pragma).
#define SPMV_GPU_DECLARE_TEMPLATE(declaration, what)                          \
    _Pragma("GCC diagnostic push")                                            \
    _Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")                  \
    template <typename ValueType>                                             \
    declaration(ValueType, SPMV_GPU_WITH_DEFAULT)                             \
    {                                                                         \
        ::spmv::gpu::detail::not_compiled(what);                              \
    }                                                                         \
    _Pragma("GCC diagnostic pop") static_assert(true)
#endif
// clang-format on
