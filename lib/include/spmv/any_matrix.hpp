#pragma once
/// AnyMatrix: a runtime choice among all storage formats (for the CLI, the GUI and the kernels),
/// and the format-generic operations on it. Its alternatives are generated from the one list of
/// formats, spmv/formats/list.hpp, in the registry's order.
#include <cstdint>
#include <variant>

#include <spmv/format.hpp>
#include <spmv/formats/list.hpp>

namespace spmv {

// AnyMatrix is std::variant itself (not a member typedef), so that functions taking
// `const AnyMatrix<ValueType>&` deduce ValueType: the X-macro writes ", Type<V, int32_t>" per
// format and SPMV_DROP_FIRST drops the leading (empty) argument.
#define SPMV_DROP_FIRST_I(first, ...) __VA_ARGS__
#define SPMV_DROP_FIRST(...) SPMV_DROP_FIRST_I(__VA_ARGS__)
#define SPMV_ANY_MATRIX_ALTERNATIVE(name, Type) , Type<ValueType, std::int32_t>
template <typename ValueType>
using AnyMatrix = std::variant<SPMV_DROP_FIRST(SPMV_FOR_EACH_FORMAT(SPMV_ANY_MATRIX_ALTERNATIVE))>;
#undef SPMV_ANY_MATRIX_ALTERNATIVE

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
