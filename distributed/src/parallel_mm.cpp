// Per-rank input of a Matrix Market file (parallel_mm.hpp): byte ranges aligned to lines, the
// serial reader's per-entry parsing (io::EntryRangeReader), entries sent to their row block's
// owner in bounded rounds, the serial reader's checks that need the whole file agreed across
// the ranks, and the nnz partition cut by a distributed prefix sum. Plain C++ over Comm.
#include <spmv/dist/parallel_mm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <spmv/dist/nnz_split.hpp>
#include <spmv/error.hpp>
#include <spmv/memory.hpp>

#include "shared_steps.hpp"

namespace spmv::dist {

using detail::allgather_i64;

namespace {

/// One entry on its way to its owner: global row and column, its place in file order (rank of
/// the range << 40 | position in the range, so that ranks' ranges keep file order) and value.
struct Entry {
    std::int64_t row;
    std::int64_t col;
    std::int64_t seq;
    double val;
};
static_assert(sizeof(Entry) == 4 * sizeof(std::int64_t));
constexpr int seq_shift = 40;

/// Sends every entry of `out` to owner(row) and appends what this rank receives to `in`.
/// Collective (one all-to-all of counts, one of entries).
template <typename Owner>
void exchange(const Comm& comm, std::span<const Entry> out, const Owner& owner,
              std::vector<Entry>& in)
{
    const auto P = static_cast<std::size_t>(comm.size());
    std::vector<std::int64_t> count(P, 0);
    std::vector<std::int32_t> dest(out.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
        dest[k] = owner(out[k].row);
        ++count[static_cast<std::size_t>(dest[k])];
    }
    std::vector<std::int64_t> at(P + 1, 0);
    for (std::size_t s = 0; s < P; ++s) {
        at[s + 1] = at[s] + count[s];
    }
    std::vector<std::int64_t> buf(out.size() * 4);
    for (std::size_t k = 0; k < out.size(); ++k) {
        auto& pos = at[static_cast<std::size_t>(dest[k])];
        std::memcpy(buf.data() + pos * 4, &out[k], sizeof(Entry));
        ++pos;
    }
    std::vector<std::int64_t> send_counts(P), recv_counts(P);
    for (std::size_t s = 0; s < P; ++s) {
        send_counts[s] = count[s] * 4;
    }
    comm.alltoall(send_counts, recv_counts);
    std::int64_t total = 0;
    for (auto c : recv_counts) {
        total += c;
    }
    // received straight into `in`: MPI writes the bytes of whole entries (4 int64 each)
    const auto old = in.size();
    in.resize(old + static_cast<std::size_t>(total / 4));
    comm.alltoallv(buf, send_counts,
                   std::span<std::int64_t>(reinterpret_cast<std::int64_t*>(in.data() + old),
                                           static_cast<std::size_t>(total)),
                   recv_counts);
}

/// One rank's contiguous rows [first, first + count) in CSR with global columns.
struct Block {
    std::int64_t first = 0;
    std::vector<std::int64_t> row_ptrs{0};
    std::vector<std::int64_t> cols;
    std::vector<double> vals;
    std::int64_t duplicates = 0;
    std::int64_t zeros = 0;
};

/// The entries of rows [first, first + count), received in pieces, in CSR order: sorted by
/// (row, column, file order), duplicates summed in file order (as the serial reader's
/// assembly), zeros counted. No sorted copy of the entries: each piece is placed straight into
/// the block's arrays by a counting sort on the row and freed, then each row is sorted in
/// place. Peak: the pieces (32 bytes per entry) and the arrays (24: column, file order, value),
/// where a sorted copy of the entries took 64 and the rows 16 more.
Block assemble(std::vector<std::vector<Entry>>& pieces, std::int64_t first, std::int64_t count)
{
    const auto rows = static_cast<std::size_t>(count);
    std::vector<std::int64_t> start(rows + 1, 0);
    for (const auto& piece : pieces) {
        for (const auto& x : piece) {
            SPMV_EXPECTS(x.row >= first && x.row < first + count,
                         "an entry reached a rank that does not own its row");
            ++start[static_cast<std::size_t>(x.row - first) + 1];
        }
    }
    for (std::size_t i = 0; i < rows; ++i) {
        start[i + 1] += start[i];
    }
    const auto n = static_cast<std::size_t>(start[rows]);
    std::vector<std::int64_t> cols(n);
    std::vector<std::int64_t> seqs(n);
    std::vector<double> vals(n);
    {
        std::vector<std::int64_t> at(start.begin(), start.end() - 1);
        for (auto& piece : pieces) {
            for (const auto& x : piece) {
                auto& pos = at[static_cast<std::size_t>(x.row - first)];
                const auto k = static_cast<std::size_t>(pos++);
                cols[k] = x.col;
                seqs[k] = x.seq;
                vals[k] = x.val;
            }
            std::vector<Entry>().swap(piece);
        }
        pieces.clear();
    }
    // each row by (column, file order): insertion sort for the usual short rows (a row that
    // arrives in order costs one pass), std::sort on a copy of a long one
    std::vector<Entry> row;
    for (std::size_t i = 0; i < rows; ++i) {
        const auto b = static_cast<std::size_t>(start[i]);
        const auto e = static_cast<std::size_t>(start[i + 1]);
        const auto before = [&](std::size_t x, std::size_t y) {
            return cols[x] != cols[y] ? cols[x] < cols[y] : seqs[x] < seqs[y];
        };
        if (e - b <= 32) {
            for (auto k = b + 1; k < e; ++k) {
                for (auto j = k; j > b && before(j, j - 1); --j) {
                    std::swap(cols[j], cols[j - 1]);
                    std::swap(seqs[j], seqs[j - 1]);
                    std::swap(vals[j], vals[j - 1]);
                }
            }
        } else {
            row.clear();
            for (auto k = b; k < e; ++k) {
                row.push_back({0, cols[k], seqs[k], vals[k]});
            }
            std::sort(row.begin(), row.end(), [](const Entry& x, const Entry& y) {
                return x.col != y.col ? x.col < y.col : x.seq < y.seq;
            });
            for (auto k = b; k < e; ++k) {
                cols[k] = row[k - b].col;
                vals[k] = row[k - b].val;
            }
        }
    }
    std::vector<std::int64_t>().swap(seqs);
    // duplicates summed in file order, in place
    Block blk;
    blk.first = first;
    blk.row_ptrs.assign(rows + 1, 0);
    std::size_t w = 0;
    for (std::size_t i = 0; i < rows; ++i) {
        const auto row_begin = w;
        const auto e = static_cast<std::size_t>(start[i + 1]);
        for (auto k = static_cast<std::size_t>(start[i]); k < e; ++k) {
            if (w > row_begin && cols[w - 1] == cols[k]) {
                vals[w - 1] += vals[k];
                ++blk.duplicates;
            } else {
                cols[w] = cols[k];
                vals[w] = vals[k];
                ++w;
            }
        }
        blk.row_ptrs[i + 1] = static_cast<std::int64_t>(w);
    }
    cols.resize(w);
    vals.resize(w);
    for (const double v : vals) {
        blk.zeros += v == 0.0 ? 1 : 0;
    }
    blk.cols = std::move(cols);
    blk.vals = std::move(vals);
    return blk;
}

template <typename ValueType>
GlobalRows<ValueType> to_rows(Block&& b, std::int64_t num_rows, std::int64_t num_cols)
{
    GlobalRows<ValueType> g;
    g.num_rows = num_rows;
    g.num_cols = num_cols;
    const auto count = static_cast<std::int64_t>(b.row_ptrs.size()) - 1;
    g.rows.resize(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
        g.rows[static_cast<std::size_t>(i)] = b.first + i;
    }
    g.row_ptrs = std::move(b.row_ptrs);
    g.col_idxs = std::move(b.cols);
    if constexpr (std::is_same_v<ValueType, double>) {
        g.values = std::move(b.vals);
    } else {
        g.values.resize(b.vals.size());
        for (std::size_t k = 0; k < b.vals.size(); ++k) {
            g.values[k] = static_cast<ValueType>(b.vals[k]);
        }
    }
    return g;
}

/// Text after pos where the next line starts (pos itself when a line starts there).
std::size_t line_start(std::string_view text, std::size_t first, std::size_t pos)
{
    if (pos <= first) {
        return first;
    }
    if (pos >= text.size()) {
        return text.size();
    }
    if (text[pos - 1] == '\n') {
        return pos;
    }
    const auto* nl =
        static_cast<const char*>(std::memchr(text.data() + pos, '\n', text.size() - pos));
    return nl ? static_cast<std::size_t>(nl - text.data()) + 1 : text.size();
}

std::int64_t rounds_for(const Comm& comm, std::int64_t amount, std::int64_t per_round)
{
    const std::int64_t mine = (amount + per_round - 1) / per_round;
    return static_cast<std::int64_t>(comm.allreduce_max(static_cast<double>(mine)));
}

/// Entries one rank's row block gets when the entries are spread evenly: 1/P of the entry
/// lines (at most the data lines the file has: a size line may declare more than it holds),
/// doubled for a symmetric or skew-symmetric file's mirrors.
std::int64_t share_entries(const io::MatrixMarketInfo& info, std::int64_t data_lines, int P)
{
    const std::int64_t mirror = info.symmetry != io::Symmetry::general ? 2 : 1;
    return (std::min(data_lines, info.entries) * mirror + P - 1) / P;
}

/// Bytes one rank needs in steps 3 and 5, estimated before any is allocated: in step 3 its
/// share of the entries (share_entries) as they arrive (32 bytes each) and one round's buffers
/// (84 bytes per entry parsed and sent: the parsed triplets, the outgoing entries, their
/// destinations and the send buffer; the lines of one round taken at the range's mean line
/// length), in step 5 the entries and the arrays they are sorted into (24 more: column, file
/// order, value); its row block's pointers and counting sort (24 per row). Too low when a
/// rank's rows hold more than 1/P of the entries: the step-5 check counts what arrived.
std::uint64_t share_estimate(const io::MatrixMarketInfo& info, std::int64_t data_lines,
                             std::int64_t range_lines, std::int64_t range_bytes, int P, int me,
                             std::int64_t round_bytes)
{
    const std::int64_t mirror = info.symmetry != io::Symmetry::general ? 2 : 1;
    const double share = static_cast<double>(share_entries(info, data_lines, P));
    const double rows = static_cast<double>(partition_rows(info.rows, P).count(me));
    const double per_round =
        range_bytes > round_bytes
            ? std::ceil(static_cast<double>(range_lines) * static_cast<double>(round_bytes) /
                        static_cast<double>(range_bytes)) + 1
            : static_cast<double>(range_lines);
    const double round = std::min(per_round, static_cast<double>(info.entries)) *
                         static_cast<double>(mirror);
    return static_cast<std::uint64_t>(std::max(share * 32 + round * 84, share * 56) + rows * 24);
}

/// "rank 1 of 4: reading its share of F (1000000 x 1000000, 6940000 entries: rows 250000 to
/// 499999, about 1735000 entries)" for the budget's message.
std::string share_what(const std::string& source, const io::MatrixMarketInfo& info,
                       std::int64_t data_lines, int P, int me)
{
    const Partition blocks = partition_rows(info.rows, P);
    const auto first = blocks.offsets[static_cast<std::size_t>(me)];
    const auto count = blocks.count(me);
    return "rank " + std::to_string(me) + " of " + std::to_string(P) + ": reading its share of " +
           source + " (" + std::to_string(info.rows) + " x " + std::to_string(info.cols) + ", " +
           std::to_string(info.entries) + " entries: " +
           (count > 0 ? "rows " + std::to_string(first) + " to " +
                            std::to_string(first + count - 1)
                      : std::string("no rows")) +
           ", about " + std::to_string(share_entries(info, data_lines, P)) + " entries" +
           (info.symmetry != io::Symmetry::general ? " after symmetric expansion" : "") + ")";
}

/// The root's info (numbers and strings) to every rank.
void broadcast_info(const Comm& comm, io::MatrixMarketInfo& info)
{
    std::int64_t n[10] = {static_cast<std::int64_t>(info.field),
                          static_cast<std::int64_t>(info.symmetry),
                          info.rows,
                          info.cols,
                          info.entries,
                          info.diagonal_entries,
                          info.expanded_entries,
                          info.duplicates_summed,
                          info.explicit_zeros,
                          info.collection_id};
    comm.broadcast(n, 10, Datatype::i64);
    info.field = static_cast<io::Field>(n[0]);
    info.symmetry = static_cast<io::Symmetry>(n[1]);
    info.rows = n[2];
    info.cols = n[3];
    info.entries = n[4];
    info.diagonal_entries = n[5];
    info.expanded_entries = n[6];
    info.duplicates_summed = n[7];
    info.explicit_zeros = n[8];
    info.collection_id = n[9];
    comm.broadcast(info.collection_name);
    comm.broadcast(info.compression);
    comm.broadcast(info.archive_member);
    std::string comments;
    for (const auto& c : info.comments) {
        comments += c + '\n';
    }
    comm.broadcast(comments);
    info.comments.clear();
    for (std::size_t at = 0; at < comments.size();) {
        const auto nl = comments.find('\n', at);
        info.comments.push_back(comments.substr(at, nl - at));
        at = nl + 1;
    }
}

}  // namespace

template <typename ValueType>
ParallelRead<ValueType> read_matrix_market_parallel(const Comm& comm,
                                                    const std::filesystem::path& path,
                                                    const ParallelReadOptions& opt)
{
    const int P = comm.size();
    const int me = comm.rank();
    std::unique_ptr<io::EntryRangeReader> reader;
    collective(comm, [&] {
        SPMV_EXPECTS(opt.partition == PartitionKind::rows || opt.partition == PartitionKind::nnz,
                     "the per-rank reader partitions by rows or nnz (metis needs the whole "
                     "graph on one process)");
        SPMV_EXPECTS(opt.round_bytes >= 1 && opt.round_entries >= 1,
                     "round_bytes and round_entries must be at least 1");
        io::ReadOptions ro = opt.read;
        ro.threads = 1;
        // the byte limit applies to this rank's share (below), not to the whole matrix's CSR
        // as the serial reader checks it; the size line's dimension check stays as it is
        ro.memory.bytes = 0;
        reader = std::make_unique<io::EntryRangeReader>(path, ro);
    });
    std::int64_t plain = reader->plain() ? 1 : 0;
    comm.broadcast(&plain, 1, Datatype::i64);

    ParallelRead<ValueType> result;
    // the entries of this rank's row block (steps 3 and 5), then of its nnz-partition rows
    // (step 6): one piece per round, each allocated once at its size (a growing vector would
    // hold up to twice the entries, and three times while it moves)
    std::vector<std::vector<Entry>> pieces;
    const auto receive = [&](std::span<const Entry> out, const auto& owner_of) {
        std::vector<Entry> got;
        exchange(comm, out, owner_of, got);
        if (!got.empty()) {
            pieces.push_back(std::move(got));
        }
    };
    io::MatrixMarketInfo& info = result.info;

    if (plain == 0) {
        // Compressed or archived: no byte ranges; rank 0 reads it whole, its entries go to
        // their owners in rounds like a range's.
        result.per_rank = false;
        result.note = reader->source() + " is " +
                      (reader->plain() ? std::string("not plain on rank 0")
                                       : reader->packing()) +
                      ": it cannot be read by byte ranges, so rank 0 reads it whole";
        reader.reset();
        Csr<double, std::int32_t> a;
        collective(comm, [&] {
            if (me == 0) {
                a = io::read_matrix_market(path, &info, opt.read);
            }
        });
        broadcast_info(comm, info);
        const Partition blocks = partition_rows(info.rows, P);
        const std::int64_t n = me == 0 ? static_cast<std::int64_t>(a.values.size()) : 0;
        const auto rounds = rounds_for(comm, n, opt.round_entries);
        std::int64_t row = 0;
        std::vector<Entry> out;
        for (std::int64_t r = 0; r < rounds; ++r) {
            out.clear();
            const std::int64_t from = std::min(n, r * opt.round_entries);
            const std::int64_t to = std::min(n, from + opt.round_entries);
            for (std::int64_t k = from; k < to; ++k) {
                while (a.row_ptrs[static_cast<std::size_t>(row) + 1] <= k) {
                    ++row;
                }
                out.push_back({row, a.col_idxs[static_cast<std::size_t>(k)], k,
                               a.values[static_cast<std::size_t>(k)]});
            }
            receive(out, [&](std::int64_t g) { return blocks.owner_of(g); });
        }
    } else {
        info = reader->info();
        const auto text = reader->text();
        const auto D = reader->data_begin();
        const std::size_t n = text.size() - D;
        const auto cut = [&](int r) {  // D + floor(n * r / P) without overflow
            const auto R = static_cast<std::size_t>(r);
            const auto Pz = static_cast<std::size_t>(P);
            return line_start(text, D, D + n / Pz * R + n % Pz * R / Pz);
        };
        const std::size_t b = cut(me);
        const std::size_t e = cut(me + 1);
        const auto newlines = static_cast<std::int64_t>(
            std::count(text.begin() + static_cast<std::ptrdiff_t>(b),
                       text.begin() + static_cast<std::ptrdiff_t>(e), '\n'));
        const auto all_newlines = allgather_i64(comm, std::span<const std::int64_t>(&newlines, 1));
        std::int64_t first_line = reader->data_line();
        std::int64_t data_lines = 1;  // the last line may lack its end of line
        for (int s = 0; s < P; ++s) {
            first_line += s < me ? all_newlines[static_cast<std::size_t>(s)] : 0;
            data_lines += all_newlines[static_cast<std::size_t>(s)];
        }
        // this rank's share against the budget, before anything is parsed (parallel_mm.hpp)
        collective(comm, [&] {
            require_memory(opt.read.memory,
                           share_estimate(info, data_lines, newlines + 1,
                                          static_cast<std::int64_t>(e - b), P, me,
                                          opt.round_bytes),
                           share_what(reader->source(), info, data_lines, P, me));
        });
        const Partition blocks = partition_rows(info.rows, P);
        const auto owner = [&](std::int64_t g) { return blocks.owner_of(g); };

        // Parse and send, round after round (the same number of rounds on every rank).
        const auto rounds = rounds_for(comm, static_cast<std::int64_t>(e - b), opt.round_bytes);
        io::EntryCounts counts;
        std::int64_t line = first_line;
        std::size_t pos = b;
        std::string local_error;
        std::int64_t seq = std::int64_t{me} << seq_shift;
        std::vector<std::int32_t> ri, ci;
        std::vector<double> vi;
        std::vector<Entry> out;
        const auto next_stop = [&](std::size_t from) {
            return std::min(e,
                            line_start(text, D, from + static_cast<std::size_t>(opt.round_bytes)));
        };
        for (std::int64_t r = 0; r < rounds; ++r) {
            out.clear();
            if (local_error.empty() && pos < e) {
                const auto stop = next_stop(pos);
                ri.clear();
                ci.clear();
                vi.clear();
                try {
                    line = reader->parse(pos, stop, line, counts, ri, ci, vi);
                    out.reserve(ri.size());
                    for (std::size_t k = 0; k < ri.size(); ++k) {
                        out.push_back({ri[k], ci[k], seq++, vi[k]});
                    }
                } catch (const std::exception& ex) {
                    local_error = ex.what();
                    out.clear();
                }
                pos = stop;
            }
            receive(out, owner);
        }
        std::vector<Entry>().swap(out);

        // The checks that need the ranges before this one, and the first error of the file.
        const std::int64_t mine[7] = {local_error.empty() ? 0 : 1, counts.count, counts.expanded,
                                      counts.diagonal, counts.first_lower, counts.first_upper,
                                      line - first_line};
        const auto all = allgather_i64(comm, mine);
        io::EntryCounts prior;
        io::EntryCounts total;
        std::int64_t total_lines = 0;
        for (int s = 0; s < P; ++s) {
            const auto* v = all.data() + static_cast<std::size_t>(s) * 7;
            if (s < me) {
                prior.count += v[1];
                prior.expanded += v[2];
                prior.diagonal += v[3];
                prior.first_lower = prior.first_lower ? prior.first_lower : v[4];
                prior.first_upper = prior.first_upper ? prior.first_upper : v[5];
            }
            total.count += v[1];
            total.expanded += v[2];
            total.diagonal += v[3];
            total_lines += v[6];
        }
        std::string error = local_error;
        const bool recheck =
            !error.empty() || prior.count + counts.count > info.entries ||
            (prior.first_lower != 0 && counts.first_upper != 0) ||
            (prior.first_upper != 0 && counts.first_lower != 0) ||
            prior.expanded + counts.expanded > std::numeric_limits<std::int32_t>::max();
        if (recheck) {
            // parse the range again from the state of everything before it: the serial
            // reader's first error of this range, on its line
            io::EntryCounts c = prior;
            std::int64_t l = first_line;
            try {
                for (std::size_t p = b; p < e;) {
                    const auto stop = next_stop(p);
                    ri.clear();
                    ci.clear();
                    vi.clear();
                    l = reader->parse(p, stop, l, c, ri, ci, vi);
                    p = stop;
                }
            } catch (const std::exception& ex) {
                error = ex.what();
            }
        }
        agree(comm, error);
        collective(comm, [&] {
            if (me == 0 && total.count < info.entries) {
                reader->fail_short(reader->data_line() + total_lines, total.count);
            }
        });
        info.diagonal_entries = total.diagonal;
        info.expanded_entries = total.expanded;
        reader.reset();  // unmaps the file
    }

    // The row blocks, then the partition asked for.
    const Partition blocks = partition_rows(info.rows, P);
    Block block;
    collective(comm, [&] {
        if (result.per_rank) {  // the entries that did arrive (a skewed file's share is larger)
            std::int64_t n = 0;
            double have = 0.0;
            for (const auto& piece : pieces) {
                n += static_cast<std::int64_t>(piece.size());
                have += static_cast<double>(piece.capacity()) * sizeof(Entry);
            }
            const auto rows = static_cast<double>(blocks.count(me));
            require_memory(opt.read.memory,
                           static_cast<std::uint64_t>(have + 24.0 * static_cast<double>(n) +
                                                      24 * rows),
                           "rank " + std::to_string(me) + " of " + std::to_string(P) +
                               ": assembling its " + std::to_string(n) + " entries of " +
                               path.string() + " into rows");
        }
        block = assemble(pieces, blocks.offsets[static_cast<std::size_t>(me)],
                                blocks.count(me));
    });
    if (result.per_rank) {
        info.duplicates_summed = comm.allreduce_sum(block.duplicates);
        info.explicit_zeros = comm.allreduce_sum(block.zeros);
    }
    info.nnz = comm.allreduce_sum(block.row_ptrs.back());
    if (opt.partition == PartitionKind::rows) {
        result.partition = blocks;
        result.rows = to_rows<ValueType>(std::move(block), info.rows, info.cols);
        return result;
    }
    // the split points from the blocks' row pointers (nnz_split.hpp, shared with generate_parallel)
    result.partition = nnz_partition(
        comm, info.rows, block.first, static_cast<std::int64_t>(block.row_ptrs.size()) - 1,
        [&block](global_index i) { return block.row_ptrs[static_cast<std::size_t>(i)]; });
    const Partition& p = result.partition;
    if (p.offsets == blocks.offsets) {  // the nnz cuts are the row blocks: nothing moves
        result.rows = to_rows<ValueType>(std::move(block), info.rows, info.cols);
        return result;
    }
    const auto own_nnz = block.row_ptrs.back();
    const auto rounds = rounds_for(comm, own_nnz, opt.round_entries);
    std::vector<Entry> out;
    std::int64_t row = 0;
    for (std::int64_t r = 0; r < rounds; ++r) {
        out.clear();
        const std::int64_t from = std::min(own_nnz, r * opt.round_entries);
        const std::int64_t to = std::min(own_nnz, from + opt.round_entries);
        for (std::int64_t k = from; k < to; ++k) {
            while (block.row_ptrs[static_cast<std::size_t>(row) + 1] <= k) {
                ++row;
            }
            out.push_back({block.first + row, block.cols[static_cast<std::size_t>(k)], 0,
                           block.vals[static_cast<std::size_t>(k)]});
        }
        receive(out, [&](std::int64_t g) { return p.owner_of(g); });
    }
    block = Block{};
    collective(comm, [&] {
        auto moved =
            assemble(pieces, p.offsets[static_cast<std::size_t>(me)], p.count(me));
        result.rows = to_rows<ValueType>(std::move(moved), info.rows, info.cols);
    });
    return result;
}

template ParallelRead<double> read_matrix_market_parallel<double>(const Comm&,
                                                                  const std::filesystem::path&,
                                                                  const ParallelReadOptions&);
template ParallelRead<float> read_matrix_market_parallel<float>(const Comm&,
                                                                const std::filesystem::path&,
                                                                const ParallelReadOptions&);

}  // namespace spmv::dist
