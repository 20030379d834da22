// Per-rank generation of a gen: matrix (parallel_gen.hpp): each rank generates its rows with
// gen::generate_rows; the nnz partition is cut from the ranks' equal row blocks by
// nnz_partition (nnz_split.hpp) before any row is built. Metis (and a generator without a
// row-range form) falls back to rank 0 generating the whole matrix. Plain C++ over Comm.
#include <spmv/dist/parallel_gen.hpp>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <spmv/dist/nnz_split.hpp>
#include <spmv/error.hpp>
#include <spmv/generator_rows.hpp>
#include <spmv/generators.hpp>

#include "shared_steps.hpp"

namespace spmv::dist {

using detail::broadcast_partition;

namespace {

constexpr int tag_rows = 3601;
constexpr int tag_ptrs = 3602;
constexpr int tag_cols = 3603;
constexpr int tag_vals = 3604;

template <typename ValueType>
std::int64_t rows_of(const GlobalRows<ValueType>& g)
{
    return static_cast<std::int64_t>(g.rows.size());
}

template <typename ValueType>
std::int64_t entries_of(const GlobalRows<ValueType>& g)
{
    return static_cast<std::int64_t>(g.col_idxs.size());
}

/// Generated rows in the value type asked for: the index arrays move, the values convert.
template <typename ValueType>
GlobalRows<ValueType> to_value_type(GlobalRows<double>&& g)
{
    if constexpr (std::is_same_v<ValueType, double>) {
        return std::move(g);
    } else {
        GlobalRows<ValueType> out;
        out.num_rows = g.num_rows;
        out.num_cols = g.num_cols;
        out.rows = std::move(g.rows);
        out.row_ptrs = std::move(g.row_ptrs);
        out.col_idxs = std::move(g.col_idxs);
        out.values.resize(g.values.size());
        std::transform(g.values.begin(), g.values.end(), out.values.begin(),
                       [](double v) { return static_cast<ValueType>(v); });
        return out;
    }
}

/// Bytes a rank's rows take while they are generated: gen::rows_bytes's 8 per row id and row
/// pointer and 16 per entry, plus the converted values for a value type other than double.
template <typename ValueType>
std::uint64_t share_bytes(std::int64_t rows, std::int64_t entries)
{
    const std::uint64_t convert = std::is_same_v<ValueType, double> ? 0 : sizeof(ValueType);
    return 8 * static_cast<std::uint64_t>(rows) + 8 * (static_cast<std::uint64_t>(rows) + 1) +
           (16 + convert) * static_cast<std::uint64_t>(entries);
}

/// Rank 0 generates the whole matrix (within `budget`), partitions it and sends every rank its
/// rows (extract_rows, one rank at a time).
template <typename ValueType>
ParallelGenerated<ValueType> from_root(const Comm& comm, const gen::Spec& spec,
                                       std::string_view text, PartitionKind kind,
                                       const MemoryBudget& budget, std::string note)
{
    const int P = comm.size();
    const int me = comm.rank();
    ParallelGenerated<ValueType> out;
    out.per_rank = false;
    out.note = std::move(note);
    Csr<double, std::int32_t> a;
    Partition p;
    std::vector<std::int64_t> sizes(2 * static_cast<std::size_t>(P), 0);  // rows, nnz per rank
    collective(comm, [&] {
        if (me == 0) {
            a = gen::generate(spec, budget);
            p = make_partition(a, kind, P);
            for (int r = 0; r < P; ++r) {
                for (const auto g : p.indices_of(r)) {
                    sizes[2 * static_cast<std::size_t>(r)] += 1;
                    sizes[2 * static_cast<std::size_t>(r) + 1] +=
                        a.row_ptrs[static_cast<std::size_t>(g) + 1] -
                        a.row_ptrs[static_cast<std::size_t>(g)];
                }
            }
        }
    });
    out.partition = broadcast_partition(comm, std::move(p));
    comm.broadcast(sizes.data(), static_cast<std::int64_t>(sizes.size()), Datatype::i64);
    std::int64_t shape[2] = {a.num_rows, a.num_cols};
    comm.broadcast(shape, 2, Datatype::i64);
    const auto rows = sizes[2 * static_cast<std::size_t>(me)];
    const auto entries = sizes[2 * static_cast<std::size_t>(me) + 1];
    auto& g = out.rows;
    collective(comm, [&] {
        require_memory(budget, share_bytes<ValueType>(rows, entries),
                       "rank " + std::to_string(me) + ": its " + std::to_string(rows) + " rows (" +
                           std::to_string(entries) + " nonzeros) of " + std::string(text));
        g.num_rows = shape[0];
        g.num_cols = shape[1];
        if (me != 0) {
            g.rows.resize(static_cast<std::size_t>(rows));
            g.row_ptrs.resize(static_cast<std::size_t>(rows) + 1);
            g.col_idxs.resize(static_cast<std::size_t>(entries));
            g.values.resize(static_cast<std::size_t>(entries));
        }
    });
    if (me == 0) {
        // the receivers' buffers are agreed; a failure from here on can only abort
        try {
            for (int r = 1; r < P; ++r) {
                auto part = to_value_type<ValueType>(extract_rows(a, out.partition, r));
                comm.send(part.rows.data(), rows_of(part), Datatype::i64, r, tag_rows);
                comm.send(part.row_ptrs.data(), rows_of(part) + 1, Datatype::i64, r, tag_ptrs);
                comm.send(part.col_idxs.data(), entries_of(part), Datatype::i64, r, tag_cols);
                comm.send(part.values.data(), entries_of(part), datatype_of<ValueType>(), r,
                          tag_vals);
            }
            g = to_value_type<ValueType>(extract_rows(a, out.partition, 0));
        } catch (const std::exception& e) {
            abort_all(std::string("generate_parallel: sending the rows failed on rank 0: ") +
                      e.what());
        }
    } else {
        comm.recv(g.rows.data(), rows, Datatype::i64, 0, tag_rows);
        comm.recv(g.row_ptrs.data(), rows + 1, Datatype::i64, 0, tag_ptrs);
        comm.recv(g.col_idxs.data(), entries, Datatype::i64, 0, tag_cols);
        comm.recv(g.values.data(), entries, datatype_of<ValueType>(), 0, tag_vals);
    }
    return out;
}

}  // namespace

template <typename ValueType>
ParallelGenerated<ValueType> generate_parallel(const Comm& comm, std::string_view text,
                                               PartitionKind kind, const MemoryBudget& budget)
{
    const int P = comm.size();
    const int me = comm.rank();
    gen::Spec spec;
    gen::Shape shape;
    bool row_range = false;
    collective(comm, [&] {
        spec = gen::parse_spec(text);
        row_range = gen::has_row_range(spec.name);
        if (row_range) {
            shape = gen::shape(spec);  // checks the parameters (row-range limits)
        }
    });
    if (!row_range || kind == PartitionKind::metis) {
        return from_root<ValueType>(
            comm, spec, text, kind, budget,
            std::string(text) + " is generated whole on rank 0 and its rows are sent: " +
                (row_range ? "partition metis needs the whole graph on one process"
                           : "generator " + spec.name + " has no row-range form"));
    }

    ParallelGenerated<ValueType> out;
    const Partition blocks = partition_rows(shape.num_rows, P);
    if (kind == PartitionKind::rows) {
        out.partition = blocks;
    } else {
        // the nnz cut from this rank's equal row block: its nonzeros before each of its rows,
        // by closed form, or from its row lengths (8 bytes a row, within the budget)
        const auto first = blocks.offsets[static_cast<std::size_t>(me)];
        const auto count = blocks.count(me);
        bool closed = false;
        std::vector<std::int64_t> prefix;
        collective(comm, [&] {
            closed = gen::nnz_closed_form(spec);
            if (!closed) {
                require_memory(budget, 8 * static_cast<std::uint64_t>(count),
                               "rank " + std::to_string(me) + ": the row lengths of rows [" +
                                   std::to_string(first) + ", " + std::to_string(first + count) +
                                   ") of " + std::string(text) + " (for the nnz partition)");
                prefix = gen::row_lengths(spec, first, first + count);
                for (std::size_t i = 1; i < prefix.size(); ++i) {
                    prefix[i] += prefix[i - 1];
                }
            }
        });
        BlockPrefix at;
        if (closed) {
            at = [&](global_index i) { return gen::count_nonzeros(spec, first, first + i); };
        } else {
            at = [&](global_index i) {
                return i == 0 ? std::int64_t{0} : prefix[static_cast<std::size_t>(i) - 1];
            };
        }
        out.partition = nnz_partition(comm, shape.num_rows, first, count, at);
    }

    // this rank's rows: estimated, agreed, then generated
    const auto first = out.partition.offsets[static_cast<std::size_t>(me)];
    const auto end = out.partition.offsets[static_cast<std::size_t>(me) + 1];
    collective(comm, [&] {
        const auto entries = gen::count_nonzeros(spec, first, end);
        require_memory(budget, share_bytes<ValueType>(end - first, entries),
                       "rank " + std::to_string(me) + ": generating its rows [" +
                           std::to_string(first) + ", " + std::to_string(end) + ") of " +
                           std::string(text) + " (" + std::to_string(entries) + " nonzeros)");
    });
    collective(comm,
               [&] { out.rows = to_value_type<ValueType>(gen::generate_rows(spec, first, end)); });
    return out;
}

template ParallelGenerated<double> generate_parallel<double>(const Comm&, std::string_view,
                                                             PartitionKind, const MemoryBudget&);
template ParallelGenerated<float> generate_parallel<float>(const Comm&, std::string_view,
                                                           PartitionKind, const MemoryBudget&);

}  // namespace spmv::dist
