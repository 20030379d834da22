// Compressed Matrix Market input in a build without libarchive: a clear refusal.
#include "archive_input.hpp"

#include <spmv/error.hpp>

namespace spmv::io::detail {

bool have_libarchive() noexcept
{
    return false;
}

Unpacked unpack(const std::string& name, Packing kind, std::string_view, int, const std::string&,
                const MemoryBudget&, bool)
{
    SPMV_THROW(NotCompiled,
               name + ": a " + packing_name(kind) +
                   (kind == Packing::tar ? " archive" : "-compressed input") +
                   ", but this SpMV Lab was built without libarchive (libarchive-dev), so it reads "
                   "plain Matrix Market text only: decompress it first (e.g. gunzip -k A.mtx.gz, "
                   "tar xzf A.tar.gz) or rebuild with libarchive-dev installed");
}

}  // namespace spmv::io::detail
