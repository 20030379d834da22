#pragma once
/// What every lesson shares: where the sample matrices live, and the self-check that ends each
/// lesson with "PASSED" only when every computed check holds (CTest looks for that word).
#include <cstdio>
#include <filesystem>
#include <string>

#include <spmv/formats/csr.hpp>
#include <spmv/io/matrix_market.hpp>

#ifndef SPMV_SAMPLES_DIR
#error "SPMV_SAMPLES_DIR must name the sample_matrices/ folder (set by tutorials/CMakeLists.txt)"
#endif

namespace tutorial {

/// Reads sample_matrices/<name> (the path is compiled in, so the lesson runs from any folder).
inline spmv::Csr<double, std::int32_t> read_sample(const std::string& name)
{
    return spmv::io::read_matrix_market(std::filesystem::path(SPMV_SAMPLES_DIR) / name);
}

/// Collects the lesson's checks; finish() prints the verdict and gives main's exit code.
class SelfCheck {
public:
    void expect(bool ok, const std::string& what)
    {
        ++total_;
        failed_ += ok ? 0 : 1;
        std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what.c_str());
    }

    int finish() const
    {
        if (total_ > 0 && failed_ == 0) {
            std::printf("self-check: all %d checks hold: PASSED\n", total_);
            return 0;
        }
        std::printf("self-check: %d of %d checks FAIL\n", failed_, total_);
        return 1;
    }

private:
    int total_ = 0;
    int failed_ = 0;
};

}  // namespace tutorial
