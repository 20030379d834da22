#include <algorithm>
#include <array>

#include <spmv/viz/glossary.hpp>

namespace spmv::viz {

namespace {

constexpr std::array<GlossaryEntry, 23> entries{{
    {"N_nzr", "Nonzeros per row on average, nnz / N. The model's main input: the index and "
              "row-pointer traffic per nonzero shrinks as it grows.",
     "Kreutzer et al. 2012, §II.B"},
    {"padding", "Storage slots that hold no nonzero (value 0, index -1 or the row's last "
                "column) so that rows of a block, slice or warp have equal length. They cost "
                "memory traffic and, where a thread walks them, loop trips.",
     "Kreutzer §II.A; Barbieri §2"},
    {"ELLPACK width", "The longest row: ELLPACK pads every row to it, so its storage is "
                      "N x (max row length) slots whatever the other rows hold.",
     "Kreutzer §II.A"},
    {"b_r", "pJDS's block height: after the rows are sorted by length, every block of b_r "
            "consecutive rows is padded to its own longest row (b_r = warp size on a GPU, so "
            "that one warp reads one block). Small b_r: less padding, more row pointers.",
     "Kreutzer §II.A, Listing 2"},
    {"C", "SELL-C-sigma's slice height: rows are stored in slices of C, each padded to its "
          "longest row; C = 32 (the warp size) on the GPUs here.",
     "Kreutzer et al. 2014 (SELL-C-sigma)"},
    {"sigma", "SELL-C-sigma's sorting window: rows are sorted by length inside windows of "
              "sigma rows before slicing, so that a slice holds rows of similar length. "
              "sigma = 1: no sorting; sigma = N: a global sort, as pJDS.",
     "Kreutzer et al. 2014"},
    {"warp", "The GPU threads that run in lockstep (32 on NVIDIA GPUs; 4 in the explorer's "
             "blackboard examples): a warp is as slow as its longest row.",
     "CUDA programming guide; Kreutzer Fig. 2"},
    {"loop trip", "One iteration of a thread's loop over the entries of its row: one "
                  "multiply-add if the slot holds a nonzero, idle or padding work otherwise.",
     "PELLR §2"},
    {"N_iter", "Loop trips of the whole SpMV: over the warps, the longest row of each warp "
               "(padded length where the format stores padding), summed. Fewer trips, less "
               "time when the GPU is latency bound.",
     "PELLR (Dziekonski et al.) eq. 1"},
    {"N_p", "Floating-point operations of the useful work: over the threads that do work, 2 "
            "useful - 1 (a multiply per nonzero, an add between them); 2 nnz - (non-empty "
            "rows) with one thread per row.",
     "PELLR eq. 2"},
    {"idle lane slot", "A (lane, loop trip) of a warp in which the lane does nothing: its row "
                       "ended early (idle) or there is no row at all (a phantom lane of the "
                       "last, short warp). Idle share = idle / reserved lane slots.",
     "Kreutzer Fig. 2"},
    {"useful fraction", "Useful lane slots over the slots the warps reserve (warp size x "
                        "their longest row, summed): 100 % when every lane works on every "
                        "trip.",
     "Kreutzer Fig. 2"},
    {"HYB K", "HYB's ELL width: every row's first K entries go to the ELL part, the rest to "
              "a COO tail. Auto: the one-third rule (the largest K such that at least a third of "
              "the rows have K or more entries).",
     "Bell & Garland 2009; PELLR §2.3.4"},
    {"pitch", "ELLG's leading dimension in bytes: each column of the ELL arrays starts on a "
              "multiple of it, so that a warp's loads are aligned (128 B: one cache line).",
     "Barbieri et al. §2"},
    {"diag pad", "JDS CSR-like: each jagged diagonal padded to a multiple of this many "
                 "entries, so that the threads of a warp stay aligned.",
     "Cevahir et al. §3.1"},
    {"pJDS pad", "pJDS with the row count rounded up to a multiple of b_r: empty rows after "
                 "the last sorted row fill the last block, so that every warp has a full block "
                 "of rows (the paper's footnote 2: N padded to the warp size). Costs only "
                 "padding slots; the product is the same.",
     "Kreutzer §II.A, footnote 2"},
    {"code balance", "Bytes moved per flop: values, indices, x (alpha per nonzero) and y per "
                     "2 flops of a nonzero. The model's time is bytes / bandwidth.",
     "Kreutzer §II.B"},
    {"alpha", "Reuse of x: 1 when every nonzero loads its x entry from memory, 1/N_nzr when "
              "each x entry is loaded once (perfect reuse through the caches).",
     "Kreutzer §II.B"},
    {"T_MVM", "The model's time of one SpMV on the GPU: the bytes of the matrix, x and y over "
              "the GPU's memory bandwidth.",
     "Kreutzer §II.B, eq. 2"},
    {"T_PCI", "The time to move x and y over PCIe: with T_MVM it decides whether the GPU pays "
              "(eq. 3: the N_nzr at which both are equal).",
     "Kreutzer §II.B, eq. 3-4"},
    {"halo", "The entries of x a rank needs from other ranks for its rows: exchanged before "
             "(vector mode) or during (task mode) every distributed SpMV.",
     "Kreutzer §III; PETSc's VecGhost"},
    {"task mode", "Distributed SpMV in which a dedicated thread exchanges the halo while the "
                  "GPU computes the local part; the non-local part follows. Vector mode "
                  "exchanges first; naive overlap (mode naive) posts the messages and computes, "
                  "but the messages move only in the wait (no asynchronous progress); explicit "
                  "overlap (mode overlap, ours, GPU ranks) lets the GPU compute while the host "
                  "drives the exchange.",
     "Kreutzer §III.A, Fig. 4"},
    {"exchange path", "How the halo moves between GPU ranks: host-staged (copy to the host, "
                      "MPI, copy back), cuda-ipc (a device copy from the neighbour's GPU, "
                      "MPI for tokens only) or cuda-aware (device buffers to MPI).",
     "docs/distributed.md"},
}};

}  // namespace

std::span<const GlossaryEntry> glossary()
{
    return entries;
}

const GlossaryEntry* find_glossary(std::string_view term)
{
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [term](const GlossaryEntry& e) { return e.term == term; });
    return it == entries.end() ? nullptr : &*it;
}

}  // namespace spmv::viz
