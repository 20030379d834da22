// spmv_consumer: a program outside the SpMV Lab tree, built against its installed package.
//
//   spmv_consumer [MATRIX [FORMAT]]
//
// MATRIX is a Matrix Market file or a generator spec (default gen:powerlaw:rows=2000,seed=3);
// FORMAT a registry name (default: every format). Each format is built from the registry,
// multiplied with the reference SpMV and compared with a plain CSR loop written here. Exit 0
// when all agree, 1 on a mismatch, 2 on an error (a bad file, an unknown format).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/registry.hpp>
#include <spmv/version.hpp>

namespace {

using Csr = spmv::Csr<double, std::int32_t>;

/// y = A x by the textbook CSR loop, independent of the library's kernels.
std::vector<double> csr_multiply(const Csr& a, const std::vector<double>& x)
{
    std::vector<double> y(static_cast<std::size_t>(a.num_rows), 0.0);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (std::int32_t k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            y[i] += a.values[k] * x[a.col_idxs[k]];
        }
    }
    return y;
}

/// Largest |y[i] - expected[i]| relative to sum_j |a_ij x_j| of row i (summation order may
/// differ between formats; 1e-12 allows for that and nothing else).
double worst_error(const Csr& a, const std::vector<double>& x, const std::vector<double>& y,
                   const std::vector<double>& expected)
{
    double worst = 0.0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        double scale = 0.0;
        for (std::int32_t k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            scale += std::abs(a.values[k] * x[a.col_idxs[k]]);
        }
        const double err = std::abs(y[i] - expected[i]);
        worst = std::max(worst, scale > 0 ? err / scale : err);
    }
    return worst;
}

/// The 4x4 matrix of the cuSPARSE samples: A x with x = (1,2,3,4) is (19, 8, 51, 52).
Csr canonical()
{
    Csr a;
    a.num_rows = a.num_cols = 4;
    a.row_ptrs = {0, 3, 4, 7, 9};
    a.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    a.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    return a;
}

}  // namespace

int main(int argc, char** argv)
{
    std::printf("SpMV Lab %s (kernels: %s, %d CUDA device(s))\n",
                std::string(spmv::version).c_str(), spmv::gpu::is_compiled() ? "CUDA" : "stubs",
                spmv::gpu::device_count());
    try {
        // a hand-checked case first: the library's CSR reference on the canonical matrix
        const Csr c = canonical();
        const std::vector<double> cx = {1, 2, 3, 4};
        std::vector<double> cy(4, -1.0);
        spmv::spmv_reference(c, 1.0, std::span<const double>(cx), 0.0, std::span<double>(cy));
        if (cy != std::vector<double>{19, 8, 51, 52}) {
            std::printf("FAIL: canonical 4x4 gives (%g, %g, %g, %g), expected (19, 8, 51, 52)\n",
                        cy[0], cy[1], cy[2], cy[3]);
            return 1;
        }

        const std::string source = argc > 1 ? argv[1] : "gen:powerlaw:rows=2000,seed=3";
        const Csr a = spmv::gen::is_spec(source)
                          ? spmv::gen::generate(spmv::gen::parse_spec(source))
                          : spmv::io::read_matrix_market(source);
        std::vector<double> x(static_cast<std::size_t>(a.num_cols));
        for (std::size_t j = 0; j < x.size(); ++j) {
            x[j] = 1.0 + static_cast<double>(j % 7) / 8.0;  // exact in binary
        }
        const std::vector<double> expected = csr_multiply(a, x);
        std::printf("%s: %d x %d, %zu nonzeros\n", source.c_str(), a.num_rows, a.num_cols,
                    a.values.size());

        std::vector<std::string> names;
        if (argc > 2) {
            names.emplace_back(argv[2]);
        } else {
            for (const auto& f : spmv::formats()) names.emplace_back(f.name);
        }
        int failures = 0;
        for (const std::string& name : names) {
            const spmv::AnyMatrix<double> m = spmv::build<double>(name, a);
            std::vector<double> y(static_cast<std::size_t>(a.num_rows), 0.0);
            spmv::spmv_reference(m, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
            const double err = worst_error(a, x, y, expected);
            const bool ok = err <= 1e-12;
            failures += ok ? 0 : 1;
            std::printf("  %-10s %s (worst relative error %.1e)\n", name.c_str(),
                        ok ? "ok" : "MISMATCH", err);
        }
        if (failures > 0) {
            std::printf("FAIL: %d of %zu format(s) differ from CSR\n", failures, names.size());
            return 1;
        }
        std::printf("all %zu format(s) agree with CSR\n", names.size());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spmv_consumer: %s\n", spmv::user_message(e.what()).c_str());
        return 2;
    }
}
