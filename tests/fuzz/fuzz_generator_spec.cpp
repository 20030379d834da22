/// libFuzzer target for generator specs ("gen:NAME[:key=value,...]", spmv/generators.hpp), the
/// strings the CLI and the explorer accept in place of a file name.
///
/// The input bytes are the spec. parse_spec() must accept it or throw an spmv::Error; an
/// accepted spec goes through estimate_bytes() (which checks the name and every parameter, and
/// must also answer with a size or an spmv::Error), and when the estimate is small enough to
/// build quickly, through generate() under a 64 MiB budget. A generated matrix must be a valid
/// CSR with finite values, and -- generators being pure functions of their arguments -- small
/// ones are generated twice and must come out the same, bit for bit.
/// Anything else -- another exception type, a crash, a leak, undefined behaviour, a failed
/// check (fuzz_checks.hpp) -- aborts, and libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/memory.hpp>

#include "fuzz_checks.hpp"

namespace {

/// Estimates above this are not generated: a few MiB keep one run in milliseconds even under
/// ASan, while still reaching every generator's code paths.
constexpr std::uint64_t max_generate_bytes = std::uint64_t{8} << 20;

/// Matrices up to this estimate are generated a second time to check determinism.
constexpr std::uint64_t max_twice_bytes = std::uint64_t{256} << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const spmv::gen::Spec spec = spmv::gen::parse_spec(text);
        spmv::fuzz::check(spmv::gen::is_spec(text), "parse_spec accepted what is_spec rejects");

        const std::uint64_t bytes = spmv::gen::estimate_bytes(spec.name, spec.params);
        if (bytes > max_generate_bytes) {
            return 0;
        }
        spmv::MemoryBudget budget;
        budget.bytes = std::uint64_t{64} << 20;
        budget.origin = "fuzz_generator_spec";
        const auto a = spmv::gen::generate(spec, budget);

        spmv::fuzz::check_csr(a);
        if (bytes <= max_twice_bytes) {
            spmv::fuzz::check(spmv::gen::generate(spec, budget) == a,
                              "the same spec generated two different matrices");
        }
    } catch (const spmv::Error&) {
        // a rejected spec or parameter, or a matrix over the budget: expected
    }
    return 0;
}
