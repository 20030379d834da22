#pragma once
/// The SparseFormat concept: what every storage format unit provides (STYLE.md 5.2).
#include <concepts>
#include <cstdint>
#include <span>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename F>
concept SparseFormat = requires(const F& f, typename F::value_type s,
                                std::span<const typename F::value_type> x,
                                std::span<typename F::value_type> y) {
    typename F::value_type;
    typename F::index_type;
    { f.num_rows } -> std::convertible_to<typename F::index_type>;
    { f.num_cols } -> std::convertible_to<typename F::index_type>;
    { nnz(f) } -> std::convertible_to<std::int64_t>;
    { footprint(f) } -> std::same_as<Footprint>;
    { to_csr(f) } -> std::same_as<Csr<typename F::value_type, typename F::index_type>>;
    { validate(f) };
    { thread_work(f) } -> std::same_as<ThreadWork>;
    { spmv_reference(f, s, x, s, y, RowOrder::original) };
};

}  // namespace spmv
