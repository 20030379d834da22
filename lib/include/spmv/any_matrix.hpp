#pragma once
/// AnyMatrix: a runtime choice among all storage formats (for the CLI, the GUI and the kernels),
/// and the format-generic operations on it. Adding a format = one include + one alternative here
/// + one entry in lib/src/registry.cpp.
#include <cstdint>
#include <variant>

#include <spmv/format.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/formats/ell.hpp>
#include <spmv/formats/coo.hpp>
#include <spmv/formats/csc.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/formats/jds.hpp>
#include <spmv/formats/jds_csr.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/formats/pellr.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/bijad.hpp>
#include <spmv/formats/sell.hpp>
// [format includes: keep this marker; add new format headers above it]

namespace spmv {

template <typename ValueType>
using AnyMatrix = std::variant<Csr<ValueType, std::int32_t>, Ell<ValueType, std::int32_t>
                               , Coo<ValueType, std::int32_t>, Csc<ValueType, std::int32_t>
                               , EllR<ValueType, std::int32_t>, EllG<ValueType, std::int32_t>
                               , Hyb<ValueType, std::int32_t>
                               , Jds<ValueType, std::int32_t>, JdsCsr<ValueType, std::int32_t>
                               , Pjds<ValueType, std::int32_t>, Pellr<ValueType, std::int32_t>
                               , BiEll<ValueType, std::int32_t>, BiJad<ValueType, std::int32_t>
                               , SellCSigma<ValueType, std::int32_t>
                               // [format alternatives: keep this marker; add ", Xxx<ValueType, std::int32_t>" above it]
                               >;

template <typename ValueType>
std::int64_t nnz(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return nnz(f); }, m);
}

template <typename ValueType>
Footprint footprint(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return footprint(f); }, m);
}

template <typename ValueType>
Csr<ValueType, std::int32_t> to_csr(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return to_csr(f); }, m);
}

template <typename ValueType>
void validate(const AnyMatrix<ValueType>& m)
{
    std::visit([](const auto& f) { validate(f); }, m);
}

template <typename ValueType>
ThreadWork thread_work(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return thread_work(f); }, m);
}

template <typename ValueType>
void spmv_reference(const AnyMatrix<ValueType>& m, ValueType alpha, std::span<const ValueType> x,
                    ValueType beta, std::span<ValueType> y, RowOrder order = RowOrder::original)
{
    std::visit([&](const auto& f) { spmv_reference(f, alpha, x, beta, y, order); }, m);
}

template <typename ValueType>
std::int32_t num_rows(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return f.num_rows; }, m);
}

template <typename ValueType>
std::int32_t num_cols(const AnyMatrix<ValueType>& m)
{
    return std::visit([](const auto& f) { return f.num_cols; }, m);
}

}  // namespace spmv
