// Lesson 01: COO, the reference SpMV.
// A sparse matrix is a list of (row, column, value) triplets, one per nonzero. y = A x is then a
// loop over the triplets: each adds value * x[column] to y[row]. Every later lesson stores the
// same numbers in a smarter layout and checks its result against this loop.
#include <cstdio>
#include <span>
#include <vector>

#include <spmv/formats/coo.hpp>
#include <spmv/formats/csr.hpp>

#include "lesson.hpp"

namespace {

void print_vector(const char* name, const std::vector<double>& v)
{
    std::printf("%s = (", name);
    for (std::size_t i = 0; i < v.size(); ++i) std::printf(i ? ", %g" : "%g", v[i]);
    std::printf(")\n");
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: triplets]
    // A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]: one triplet per nonzero, nothing for the zeros.
    spmv::Coo<double, std::int32_t> a;
    a.num_rows = 4;
    a.num_cols = 4;
    a.row_idxs = {0, 0, 0, 1, 2, 2, 2, 3, 3};
    a.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    a.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    spmv::validate(a);  // throws spmv::InvalidLayout for an index out of range
    // [section: end]
    std::printf("A as COO triplets (row, col, value):\n ");
    for (std::size_t k = 0; k < a.values.size(); ++k) {
        std::printf(" (%d,%d,%g)", a.row_idxs[k], a.col_idxs[k], a.values[k]);
    }
    std::printf("\n\n");

    // [section: hand-loop]
    // y = A x: start from zero, then every triplet adds its product to its own row.
    const std::vector<double> x = {1, 2, 3, 4};
    std::vector<double> y_hand(4, 0.0);
    for (std::size_t k = 0; k < a.values.size(); ++k) {
        y_hand[a.row_idxs[k]] += a.values[k] * x[a.col_idxs[k]];
    }
    // [section: library]
    // The library computes y = alpha A x + beta y; beta = 0 overwrites whatever y held.
    std::vector<double> y_ref(4, -1.0);
    spmv::spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y_ref));
    // [section: end]
    print_vector("x            ", x);
    print_vector("A x, by hand ", y_hand);
    print_vector("A x, library ", y_ref);
    check.expect(y_hand == std::vector<double>{19, 8, 51, 52}, "hand loop gives (19, 8, 51, 52)");
    check.expect(y_ref == y_hand, "spmv_reference agrees with the hand loop");

    // alpha and beta: y = 2 A x - y0, the BLAS form every format implements.
    std::vector<double> y = {1, 1, 1, 1};
    spmv::spmv_reference(a, 2.0, std::span<const double>(x), -1.0, std::span<double>(y));
    print_vector("2 A x - (1,1,1,1)", y);
    check.expect(y == std::vector<double>{37, 15, 101, 103}, "alpha = 2, beta = -1 by hand");

    // [section: any-order]
    // Why triplets: they may come in any order (a Matrix Market file lists them so), and the
    // scatter loop does not care. Shuffle them and multiply again.
    std::vector<std::size_t> order;  // visit triplet (7k + 3) mod 9: a scrambled permutation
    for (std::size_t k = 0; k < a.values.size(); ++k) order.push_back((7 * k + 3) % 9);
    std::vector<double> y_shuffled(4, 0.0);
    std::vector<std::int32_t> rows, cols;
    std::vector<double> vals;
    for (auto k : order) {
        y_shuffled[a.row_idxs[k]] += a.values[k] * x[a.col_idxs[k]];
        rows.push_back(a.row_idxs[k]);
        cols.push_back(a.col_idxs[k]);
        vals.push_back(a.values[k]);
    }
    // Building CSR (lesson 02) from unordered triplets sorts them by (row, column).
    const auto csr = spmv::csr_from_triplets<double, std::int32_t>(4, 4, rows, cols, vals);
    // [section: end]
    std::printf("\nshuffled triplet order:");
    for (auto k : order) std::printf(" %zu", k);
    std::printf("\n");
    print_vector("A x, shuffled", y_shuffled);
    check.expect(y_shuffled == y_hand, "the triplet order does not change A x");
    check.expect(csr == spmv::to_csr(a), "csr_from_triplets(shuffled) == to_csr(COO)");

    const auto from_file = spmv::to_coo(tutorial::read_sample("canonical4.mtx"));
    check.expect(from_file.row_idxs == a.row_idxs && from_file.col_idxs == a.col_idxs &&
                     from_file.values == a.values,
                 "sample_matrices/canonical4.mtx holds the same triplets");

    // [section: footprint]
    // The price of triplets: a row index AND a column index for every nonzero.
    const auto coo_bytes = spmv::footprint(a);
    const auto csr_bytes = spmv::footprint(csr);
    // [section: end]
    std::printf("\nfootprint (double values, int32 indices):\n");
    std::printf("  COO: values %zu + indices %zu + aux %zu = %zu bytes\n", coo_bytes.value_bytes,
                coo_bytes.index_bytes, coo_bytes.aux_bytes, coo_bytes.total_bytes());
    std::printf("  CSR: values %zu + indices %zu + aux %zu = %zu bytes\n", csr_bytes.value_bytes,
                csr_bytes.index_bytes, csr_bytes.aux_bytes, csr_bytes.total_bytes());
    check.expect(coo_bytes.total_bytes() == 9 * (8 + 4 + 4), "COO = 9 x (8 + 4 + 4) = 144 bytes");
    check.expect(csr_bytes.total_bytes() == 9 * (8 + 4) + 5 * 4,
                 "CSR = 9 x (8 + 4) + 5 row pointers x 4 = 128 bytes");
    return check.finish();
}
