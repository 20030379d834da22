#pragma once
// Keeps a matrix that is too large for the machine from taking the whole app down: caps the
// process's data segment (RLIMIT_DATA: heap and private writable mappings) at a fraction of
// the memory available at start-up, so that building e.g. a 24 GB ELLPACK makes its allocation
// throw std::bad_alloc (reported in the view and the status bar as "out of memory") instead of
// the kernel's OOM killer ending the process. Device memory is not affected (the GPU layer
// reports OutOfDeviceMemory itself). SPMVLAB_MEMORY_GUARD=0 disables it.
#include <cstdint>

#include <spmv/formats/csr.hpp>
#include <spmv/memory.hpp>

/// Installs the cap; returns it in bytes (0 when none was set: disabled, unknown memory size,
/// or a lower limit already in place).
std::uint64_t installMemoryGuard(double fraction = 0.8);

/// How many bytes one storage format may take before the views refuse to build it (they show
/// the exact estimate instead, spmv::analysis::estimate_footprint): half of the memory
/// available now (MemAvailable), at most the installed guard's cap; 4 GiB when unknown.
/// SPMVLAB_FORMAT_LIMIT_MB overrides it (tests, small machines).
std::uint64_t formatMemoryLimit();

/// The largest layout the views build for a matrix whose CSR arrays take `matrixBytes`
/// (csrBytes): `machineLimit` (formatMemoryLimit()), and at most max(1.5 GiB, 4 x matrixBytes).
/// A layout past four times its matrix is at least three quarters padding: its exact estimate
/// (spmv::analysis::estimate_footprint) says as much as building it would, and building it
/// would dominate the explorer's memory (SELL-32-1 of a 10M-nonzero power law: 1.6 GB beside a
/// 0.13 GB matrix). The 1.5 GiB floor keeps the lessons' padding towers buildable (ELLPACK-R of
/// the 200,000-row power law of lesson 09: 1.11 GiB). SPMVLAB_FORMAT_LIMIT_MB overrides both.
std::uint64_t formatMemoryLimit(std::uint64_t matrixBytes, std::uint64_t machineLimit);

/// Bytes of a CSR matrix's arrays (values, column indices, row pointers).
std::uint64_t csrBytes(const spmv::Csr<double, std::int32_t>& a);

/// The budget files and generators are read within (spmv/memory.hpp): formatMemoryLimit()
/// bytes, and at most 2^24 rows or columns beyond 16 per entry on a size line; a refusal names
/// the file, the sizes and the limit, and the explorer shows it instead of loading.
spmv::MemoryBudget explorerMemoryBudget();
