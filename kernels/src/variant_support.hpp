#pragma once
// Helpers for the per-format .cu files: pick a format out of AnyMatrix, wrap a device format and
// its launcher into a DeviceOp, instantiate the assemble function that variant_list.inc names.
// Plain C++ (no CUDA types), so it can be read without knowing CUDA.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <spmv/any_matrix.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu::detail {

/// The alternative F of m (an AnyMatrix), or nullptr when m holds another format. Compiles for
/// any F (also one that is not, or not yet, an alternative of AnyMatrix). Takes any variant type
/// rather than AnyMatrix<V>, so that V need not be deduced through the AnyMatrix alias.
template <typename F, typename Variant>
const F* alternative(const Variant& m)
{
    return std::visit(
        [](const auto& f) -> const F* {
            if constexpr (std::is_same_v<std::decay_t<decltype(f)>, F>) {
                return &f;
            } else {
                return nullptr;
            }
        },
        m);
}

/// A DeviceOp made of a device format and a launcher `launch(dev, alpha, x, beta, y, order,
/// stream)`. DeviceFmt must provide device_bytes() and, for permuted formats, row_perm (a
/// DeviceBuffer<int32_t>) when `permuted` is true. `WideLaunch`: the same launcher with the sums
/// in double (Sums::double_precision), or NoWideLaunch when the format has none.
/// `DotLaunch`: `dot(dev, x, y, order, sums, sink, stream)`, y = A x with x.y fused (see
/// DeviceOp::apply_dot), or NoDotLaunch.
struct NoWideLaunch {};
struct NoDotLaunch {};

template <typename V, typename DeviceFmt, typename Launch, bool permuted = false,
          typename WideLaunch = NoWideLaunch, typename DotLaunch = NoDotLaunch>
class FormatOp final : public DeviceOp<V> {
public:
    FormatOp(DeviceFmt dev, Launch launch, WideLaunch wide = {}, DotLaunch dot = {})
        : dev_(std::move(dev)),
          launch_(std::move(launch)),
          wide_(std::move(wide)),
          dot_(std::move(dot))
    {}

    void apply(V alpha, const V* x, V beta, V* y, RowOrder order, StreamRef stream) const override
    {
        launch_(dev_, alpha, x, beta, y, order, stream);
    }
    bool apply_double_sums(V alpha, const V* x, V beta, V* y, RowOrder order,
                           StreamRef stream) const override
    {
        if constexpr (std::is_same_v<WideLaunch, NoWideLaunch>) {
            return DeviceOp<V>::apply_double_sums(alpha, x, beta, y, order, stream);
        } else {
            wide_(dev_, alpha, x, beta, y, order, stream);
            return true;
        }
    }
    bool has_double_sums() const noexcept override
    {
        return !std::is_same_v<WideLaunch, NoWideLaunch>;
    }
    bool apply_dot(const V* x, V* y, RowOrder order, Sums sums, const DotSink& sink,
                   StreamRef stream) const override
    {
        if constexpr (std::is_same_v<DotLaunch, NoDotLaunch>) {
            return DeviceOp<V>::apply_dot(x, y, order, sums, sink, stream);
        } else {
            dot_(dev_, x, y, order, sums, sink, stream);
            return true;
        }
    }
    bool has_dot() const noexcept override { return !std::is_same_v<DotLaunch, NoDotLaunch>; }
    const std::int32_t* device_row_perm() const noexcept override
    {
        if constexpr (permuted) {
            return dev_.row_perm.data();
        } else {
            return nullptr;
        }
    }
    std::size_t device_bytes() const noexcept override { return dev_.device_bytes(); }

private:
    DeviceFmt dev_;
    Launch launch_;
    [[no_unique_address]] WideLaunch wide_;
    [[no_unique_address]] DotLaunch dot_;
};

template <typename V, bool permuted = false, typename DeviceFmt, typename Launch>
std::unique_ptr<DeviceOp<V>> make_op(DeviceFmt dev, Launch launch)
{
    return std::make_unique<FormatOp<V, DeviceFmt, Launch, permuted>>(std::move(dev),
                                                                      std::move(launch));
}

/// make_op for a format that also has a double-sum launcher (see FormatOp).
template <typename V, bool permuted = false, typename DeviceFmt, typename Launch,
          typename WideLaunch>
std::unique_ptr<DeviceOp<V>> make_op(DeviceFmt dev, Launch launch, WideLaunch wide)
{
    return std::make_unique<FormatOp<V, DeviceFmt, Launch, permuted, WideLaunch>>(
        std::move(dev), std::move(launch), std::move(wide));
}

/// make_op for a format with a double-sum launcher (NoWideLaunch{} if none) and a fused-dot
/// launcher (see FormatOp).
template <typename V, bool permuted = false, typename DeviceFmt, typename Launch,
          typename WideLaunch, typename DotLaunch>
std::unique_ptr<DeviceOp<V>> make_op(DeviceFmt dev, Launch launch, WideLaunch wide, DotLaunch dot)
{
    return std::make_unique<FormatOp<V, DeviceFmt, Launch, permuted, WideLaunch, DotLaunch>>(
        std::move(dev), std::move(launch), std::move(wide), std::move(dot));
}

}  // namespace spmv::gpu::detail

/// Explicit instantiation of `assemble_<id>` for float and double (put it at the end of the .cu).
#define SPMV_INSTANTIATE_ASSEMBLE(id)                                             \
    template std::unique_ptr<::spmv::gpu::DeviceOp<float>>                        \
        spmv::gpu::detail::assemble_##id<float>(const ::spmv::AnyMatrix<float>&); \
    template std::unique_ptr<::spmv::gpu::DeviceOp<double>>                       \
        spmv::gpu::detail::assemble_##id<double>(const ::spmv::AnyMatrix<double>&);
