// [gpu] What is specific to the kernels of the permuted formats (jds, jds_csr, pjds, pellr,
// biell, bijad, sell, and the split variants of sell, pellr and pjds); test_variants_gpu.cpp
// already runs every variant over the zoo. Here: both
// result bases (RowOrder::original folds y[row_perm[k]] into the kernel, RowOrder::permuted
// leaves y[k]) with beta != 0 and beta == 0 on a NaN-poisoned y, JDS CSR-like's constant-memory
// and global-memory jd_ptrs paths, BiELL/BiJAD for every warp size a GPU warp can hold, SELL for
// C = 1, 7, 32, 64, 1024 and sigma = 1, 8, N, pJDS for b_r = 8 and 32, and the shapes that break
// kernels: one full row, rectangular, empty rows, more than 100k rows (whose power-law rows of
// up to 500 entries give the split kernels groups with T = 1, 2, 4 and 8 warps).
//
// Reference: alpha A x + beta y computed in double from the same (rounded) data; error per row
// scaled by |alpha| sum |a_ij x_j| + |beta y_i| against verify_tolerance (verify.hpp explains
// the bound), so any summation order passes and a dropped or doubled entry does not.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/bijad.hpp>
#include <spmv/formats/jds_csr.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/block_order.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/jds_csr.hpp>
#include <spmv/gpu/pjds.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/sell_i16.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

using Matrix = Csr<double, std::int32_t>;

/// Our GPU variants of every permuted host format (FormatInfo::permuted), from the registries.
std::vector<std::string> permuted_variant_names()
{
    std::vector<std::string> names;
    for (const auto& v : kernel_variants()) {
        if (!v.baseline && find_format(v.format).permuted) {
            names.emplace_back(v.name);
        }
    }
    return names;
}

const std::vector<std::string> permuted_variants = permuted_variant_names();

template <typename V>
std::vector<V> random_values(std::size_t n, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<V> v(n);
    for (auto& e : v) {
        e = static_cast<V>(d(rng));
    }
    return v;
}

/// The original-row reference alpha A x + beta y0 (in double) and each row's rounding scale.
struct Reference {
    std::vector<double> y;
    std::vector<double> scale;
    double tolerance = 0.0;
};

template <typename V>
Reference reference(const Csr<V, std::int32_t>& a, const std::vector<V>& x, V alpha, V beta,
                    const std::vector<V>& y0)
{
    Reference r;
    std::int64_t longest = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        double sum = 0.0;
        double abs_sum = 0.0;
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const double p = double{a.values[k]} * double{x[a.col_idxs[k]]};
            sum += p;
            abs_sum += std::abs(p);
        }
        longest = std::max<std::int64_t>(longest, a.row_ptrs[i + 1] - a.row_ptrs[i]);
        const double by = beta == V{0} ? 0.0 : double{beta} * double{y0[i]};
        r.y.push_back(double{alpha} * sum + by);
        r.scale.push_back(std::abs(double{alpha}) * abs_sum + std::abs(by));
    }
    r.tolerance = verify_tolerance<V>(longest);
    return r;
}

/// Largest |y[k] - ref[row(k)]| / scale over the rows (0/0 counts as 0, NaN as infinity);
/// row(k) = perm[k] when `perm` is given (permuted basis), else k.
template <typename V>
double scaled_error(const std::vector<V>& y, const Reference& ref,
                    const std::vector<std::int32_t>* perm)
{
    double worst = 0.0;
    for (std::size_t k = 0; k < y.size(); ++k) {
        const auto row = perm ? static_cast<std::size_t>((*perm)[k]) : k;
        const double diff = std::abs(double{y[k]} - ref.y[row]);
        if (!std::isfinite(double{y[k]})) {
            return std::numeric_limits<double>::infinity();
        }
        if (diff > 0.0) {
            worst = std::max(worst, ref.scale[row] > 0.0 ? diff / ref.scale[row]
                                                         : std::numeric_limits<double>::infinity());
        }
    }
    return worst;
}

template <typename V>
std::vector<std::int32_t> row_perm_of(const AnyMatrix<V>& m)
{
    return std::visit(
        [](const auto& f) -> std::vector<std::int32_t> {
            if constexpr (requires { f.row_perm; }) {
                return f.row_perm;
            } else {
                return {};
            }
        },
        m);
}

/// Runs `dev` (assembled from `a`, row permutation `perm`) in both bases, with beta = 0.5 and
/// with beta = 0 on a y full of NaN, and checks every row against the double reference.
template <typename V>
void check_both_bases(const DeviceMatrix<V>& dev, const Csr<V, std::int32_t>& a,
                      const std::vector<std::int32_t>& perm, std::uint32_t seed)
{
    REQUIRE(perm.size() == static_cast<std::size_t>(a.num_rows));
    const auto x = random_values<V>(static_cast<std::size_t>(a.num_cols), seed);
    const auto y0 = random_values<V>(static_cast<std::size_t>(a.num_rows), seed + 1);
    const V alpha = V(-0.75);
    for (const V beta : {V(0.5), V(0)}) {
        const auto ref = reference(a, x, alpha, beta, y0);
        for (const auto order : {RowOrder::original, RowOrder::permuted}) {
            const bool permuted = order == RowOrder::permuted;
            std::vector<V> y_in(y0.size(), std::numeric_limits<V>::quiet_NaN());
            if (beta != V{0}) {
                for (std::size_t k = 0; k < y_in.size(); ++k) {
                    y_in[k] = permuted ? y0[static_cast<std::size_t>(perm[k])] : y0[k];
                }
            }

            const auto y = test::run_once(dev, alpha, x, beta, y_in, order);

            INFO(dev.variant() << (permuted ? ", permuted basis" : ", original basis") << ", beta "
                               << beta << ", " << a.num_rows << "x" << a.num_cols);
            CHECK(scaled_error(y, ref, permuted ? &perm : nullptr) <= ref.tolerance);
        }
    }
}

/// The host format that GPU variant `name` runs ("sell_split" runs "sell").
std::string host_format(const std::string& name)
{
    return std::string(find_variant(name).format);
}

/// Builds the host format of variant `name` from `a` with `params`, assembles it with that
/// variant, and checks both bases.
template <typename V>
void check_variant(const std::string& name, const Matrix& a_double, const FormatParams& params,
                   std::uint32_t seed = 7)
{
    const auto a = convert_values<V>(a_double);
    const auto m = build<V>(host_format(name), a, params);
    const auto dev = assemble(m, name);
    INFO("variant " << name);
    check_both_bases(dev, a, row_perm_of(m), seed);
}

/// n x n, random rows of 0..4 entries, and row `row` holding exactly `len` entries (spread over
/// the columns): a matrix with exactly `len` jagged diagonals.
Matrix with_long_row(std::int32_t n, std::int32_t row, std::int32_t len, std::uint32_t seed)
{
    const auto base = test::random_csr(n, n, 0, 4, seed);
    Matrix a;
    a.num_rows = a.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        if (i == row) {
            for (std::int32_t e = 0; e < len; ++e) {
                a.col_idxs.push_back(static_cast<std::int32_t>(std::int64_t{e} * n / len));
                a.values.push_back(0.25 + 0.5 * e / len);
            }
        } else {
            for (auto k = base.row_ptrs[i]; k < base.row_ptrs[i + 1]; ++k) {
                a.col_idxs.push_back(base.col_idxs[k]);
                a.values.push_back(base.values[k]);
            }
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

}  // namespace

TEMPLATE_TEST_CASE("permuted kernels give the canonical 4x4 in both bases", "[gpu][permuted]",
                   float, double)
{
    using V = TestType;
    const auto a = convert_values<V>(test::canonical4());
    const std::vector<V> x = {1, 2, 3, 4};
    FormatParams params;
    params.slice_height = 2;  // SELL-2-4: row_perm = [0 2 3 1] (sell.hpp)
    params.sort_window = 4;
    params.warp_size = 4;  // BiELL W = 4: row_perm = [0 2 3 1] (biell.hpp)

    for (const auto& name : permuted_variants) {
        INFO(name);
        const auto m = build<V>(host_format(name), a, params);
        REQUIRE(row_perm_of(m) == std::vector<std::int32_t>{0, 2, 3, 1});
        const auto dev = assemble(m, name);

        const auto y_orig = test::run_once<V>(dev, 1, x, 0, std::vector<V>(4, V(-7)));
        const auto y_perm =
            test::run_once<V>(dev, 1, x, 0, std::vector<V>(4, V(-7)), RowOrder::permuted);
        // beta = 1 in the permuted basis: y_in[k] belongs to row row_perm[k]
        const auto y_perm_beta = test::run_once<V>(dev, 1, x, 1, {1, 2, 3, 4}, RowOrder::permuted);
        const auto y_orig_beta = test::run_once<V>(dev, 2, x, -1, {1, 2, 3, 4});

        CHECK(y_orig == std::vector<V>{19, 8, 51, 52});
        CHECK(y_perm == std::vector<V>{19, 51, 52, 8});
        CHECK(y_perm_beta == std::vector<V>{20, 53, 55, 12});
        CHECK(y_orig_beta == std::vector<V>{37, 14, 99, 100});
    }
}

TEMPLATE_TEST_CASE(
    "JDS CSR-like reads jd_ptrs from constant memory up to 4096 diagonals and "
    "from global memory beyond",
    "[gpu][permuted][jds_csr]", float, double)
{
    using V = TestType;
    // 7 .. 4097 diagonals: every table capacity (32, 256, 1024, 4096), each at its edge, and
    // the fallback just past the last one and well past it
    for (const std::int32_t diags : {7, 32, 33, 256, 257, 1024, 1025, 4096, 4097, 6000}) {
        const auto a_double = with_long_row(6500, 123, diags, 40 + static_cast<unsigned>(diags));
        const auto a = convert_values<V>(a_double);
        for (const std::int32_t pad : {1, 16}) {
            INFO(diags << " diagonals, diag_pad " << pad);
            const auto host = to_jds_csr(a, JdsCsrOptions{pad});
            REQUIRE(host.jd_ptrs.size() == static_cast<std::size_t>(diags) + 1);

            const auto dev = upload(host);
            FormatParams params;
            params.diag_pad = pad;

            CHECK(dev.num_diags == diags);
            CHECK(uses_constant_jd_ptrs(dev) == (diags <= jds_csr_constant_diagonals));
            check_variant<V>("jds_csr", a_double, params, 3);
            check_variant<V>("pjds", a_double, params, 4);  // same table mechanism (col_start)
        }
    }
}

TEMPLATE_TEST_CASE(
    "BiELL and BiJAD add the lanes of each row group for every power-of-two "
    "warp size up to 32",
    "[gpu][permuted][biell]", float, double)
{
    using V = TestType;
    const std::vector<test::NamedMatrix> matrices = {
        {"power-law 3001x3001", test::power_law(3001, 3001, 61)},
        {"irregular 1000x800 with empty rows", test::random_csr(1000, 800, 0, 70, 62)},
        {"onefull 1000", gen::onefull(1000, 63)},
        {"long rows 77x5000", test::random_csr(77, 5000, 100, 900, 64)},
    };

    for (const int w : {1, 2, 4, 8, 16, 32}) {
        FormatParams params;
        params.warp_size = w;
        for (const auto& m : matrices) {
            INFO("W = " << w << ", " << m.name);
            check_variant<V>("biell", m.a, params);
            check_variant<V>("bijad", m.a, params);
        }
    }
}

TEMPLATE_TEST_CASE("BiELL and BiJAD kernels refuse warp sizes that are no power of two <= 32",
                   "[gpu][permuted][biell]", float, double)
{
    using V = TestType;
    const auto a = convert_values<V>(test::random_csr(200, 200, 0, 20, 65));

    for (const int w : {3, 12, 64, 1024}) {
        INFO("W = " << w);
        CHECK_THROWS_AS(assemble(AnyMatrix<V>(to_biell(a, BiEllOptions{w}))), InvalidArgument);
        CHECK_THROWS_AS(assemble(AnyMatrix<V>(to_bijad(a, BiJadOptions{w}))), InvalidArgument);
    }
}

TEMPLATE_TEST_CASE("SELL-C-sigma works for any slice height and sort window",
                   "[gpu][permuted][sell]", float, double)
{
    using V = TestType;
    const std::vector<test::NamedMatrix> matrices = {
        {"power-law 5003x5003", test::power_law(5003, 5003, 71)},
        {"tall 4000x300 with empty rows", test::random_csr(4000, 300, 0, 9, 72)},
        {"onefull 2000", gen::onefull(2000, 73)},
    };

    for (const int c : {1, 7, 32, 64, 1024}) {
        for (const auto& m : matrices) {
            for (const int sigma : {1, 8, m.a.num_rows}) {
                FormatParams params;
                params.slice_height = c;
                params.sort_window = sigma;
                INFO("SELL-" << c << "-" << sigma << ", " << m.name);
                check_variant<V>("sell", m.a, params);
                check_variant<V>("sell_split", m.a, params);  // C != 32: the sell kernel
            }
        }
    }
}

TEST_CASE("SELL-C-1 skips its identity permutation, SELL-C-N does not", "[gpu][permuted][sell]")
{
    const auto a = test::power_law(3000, 3000, 74);

    const auto one = upload(to_sell_c_sigma(a, SellCSigmaOptions{32, 1}));
    const auto all = upload(to_sell_c_sigma(a, SellCSigmaOptions{32, 3000}));

    CHECK(one.identity_perm);
    CHECK_FALSE(all.identity_perm);
    CHECK(one.row_perm.size() == 3000);  // still there for DeviceMatrix::unpermute()
}

TEMPLATE_TEST_CASE("pJDS works for b_r = 8 and 32, rows padded to the block or not",
                   "[gpu][permuted][pjds]", float, double)
{
    using V = TestType;
    const std::vector<test::NamedMatrix> matrices = {
        {"power-law 4001x4001", test::power_law(4001, 4001, 81)},
        {"onefull 3000", gen::onefull(3000, 82)},
        {"wide 300x9000", test::random_csr(300, 9000, 0, 400, 83)},
    };

    for (const int br : {8, 32}) {
        for (const auto& m : matrices) {
            for (const bool pad_rows : {false, true}) {
                INFO("b_r = " << br << (pad_rows ? ", rows padded" : "") << ", " << m.name);
                const auto a = convert_values<V>(m.a);
                const auto host = to_pjds(a, PjdsOptions{br, pad_rows});
                for (const char* variant : {"pjds", "pjds_split"}) {
                    const auto dev = assemble(AnyMatrix<V>(host), variant);
                    check_both_bases(dev, a, host.row_perm, 5);
                }
            }
        }
    }
}

TEMPLATE_TEST_CASE(
    "pJDS with the registry's pjds_pad = 1 (Kreutzer footnote 2): pjds and "
    "pjds_split on rows rounded up to b_r",
    "[gpu][permuted][pjds]", float, double)
{
    // The layout gets round_up(N, b_r) rows, the extra ones empty (length 0, padding slots in
    // every column their block reaches); the kernels still run N rows and write N results.
    using V = TestType;
    Matrix empty;  // 100 x 50 without a single entry: 104 layout rows at b_r = 8, width 0
    empty.num_rows = 100;
    empty.num_cols = 50;
    empty.row_ptrs.assign(101, 0);
    const std::vector<test::NamedMatrix> matrices = {
        {"power-law 4001x4001", test::power_law(4001, 4001, 101)},  // wide blocks: T > 1 warps
        {"onefull 1000", gen::onefull(1000, 102)},
        {"tall 3001x700, empty rows", test::random_csr(3001, 700, 0, 9, 103)},
        {"33x33, rows of 0..40", test::random_csr(33, 33, 0, 40, 104)},
        {"1x1", test::random_csr(1, 1, 1, 1, 105)},
        {"100x50 without entries", empty},
    };
    for (const int br : {8, 32}) {
        for (const auto& m : matrices) {
            INFO("b_r = " << br << ", " << m.name);
            FormatParams params;
            params.block_rows = br;
            params.pjds_pad = 1;
            const auto a = convert_values<V>(m.a);
            const auto host = std::get<Pjds<V, std::int32_t>>(build<V>("pjds", a, params));
            REQUIRE(host.padded_rows == (a.num_rows + br - 1) / br * br);
            const auto dev = upload(host);
            CHECK(dev.row_lengths.size() == static_cast<std::size_t>(host.padded_rows));
            CHECK(dev.values.size() == host.values.size());
            for (const char* variant : {"pjds", "pjds_split"}) {
                check_variant<V>(variant, m.a, params, 11);
            }
        }
    }
}

TEMPLATE_TEST_CASE("pJDS on onefull stores (b_r + 1) N - b_r slots on the device",
                   "[gpu][permuted][pjds]", float, double)
{
    using V = TestType;
    const auto a = convert_values<V>(gen::onefull(1000, 84));

    const auto dev = upload(to_pjds(a, PjdsOptions{32, false}));

    CHECK(dev.values.size() == 33 * 1000 - 32);  // Kreutzer §II.A
    CHECK(dev.col_idxs.size() == 33 * 1000 - 32);
}

TEMPLATE_TEST_CASE(
    "every permuted kernel handles one full row, rectangular shapes, empty rows "
    "and more than 100k rows",
    "[gpu][permuted]", float, double)
{
    using V = TestType;
    Matrix empty;  // 100 x 50 without a single entry
    empty.num_rows = 100;
    empty.num_cols = 50;
    empty.row_ptrs.assign(101, 0);
    const std::vector<test::NamedMatrix> matrices = {
        {"onefull 2500", gen::onefull(2500, 91)},
        {"tall 3000x700, empty rows", test::random_csr(3000, 700, 0, 9, 92)},
        {"wide 500x9000, rows of 0..300", test::random_csr(500, 9000, 0, 300, 93)},
        {"100x50 without entries", empty},
        {"1x1", test::random_csr(1, 1, 1, 1, 94)},
        {"power-law 150000 rows", gen::power_law(150000, 1, 2.0, 500, 95)},
        {"pde48 7-point Laplacian, 110592 rows", test::pde7(48)},
    };
    FormatParams small;  // other parameters than the registry's defaults
    small.warp_size = 8;
    small.block_rows = 8;
    small.slice_height = 7;
    small.sort_window = 64;
    small.diag_pad = 4;

    for (const auto& m : matrices) {
        for (const auto& name : permuted_variants) {
            for (const auto& params : {FormatParams{}, small}) {
                INFO(m.name << ", " << name << ", W " << params.warp_size << ", b_r "
                            << params.block_rows << ", C " << params.slice_height << ", sigma "
                            << params.sort_window);
                // a variant that cannot run a layout (sell_i16: a slice spanning more than
                // 65,535 columns) must refuse it as the model predicts, naming why
                const std::string_view one[] = {name};
                const bool modelled = model::find_modelled_variant(name) != nullptr &&
                                      m.a.num_rows > 0 && !m.a.col_idxs.empty();
                if (modelled && !model::kernel_shapes(m.a, params, one).front().feasible) {
                    CHECK_THROWS_AS(check_variant<V>(name, m.a, params), NotApplicable);
                    continue;
                }
                check_variant<V>(name, m.a, params);
            }
        }
    }
}

TEMPLATE_TEST_CASE("SELL's plain launch runs its blocks widest first where widths are mixed",
                   "[gpu][permuted][sell][block-order]", float, double)
{
    // blocks5 (rows of 5..40 in groups of five) with sigma 2048: the windows leave wide and
    // narrow 128-row blocks mixed, so sell and sell_i16 upload an order (spmv/gpu/block_order.hpp)
    // where the grid is more than one resident wave: here two waves of this device
    const auto info = gpu::device_info();
    const int threads = info.threads_per_multiprocessor;
    const auto block_rows = static_cast<std::int32_t>(
        (2 * std::int64_t{info.multiprocessors} * threads + 4) / 5);  // 5 rows per block row
    const auto a = convert_values<TestType>(gen::blocks5(block_rows, 8, 7));
    const auto host = to_sell_c_sigma(a, SellCSigmaOptions{32, 2048});
    const std::int64_t blocks = (a.num_rows + 127) / 128;
    REQUIRE(gpu::block_order_pays(blocks, 128, info.multiprocessors, threads));
    const auto expected = gpu::widest_first_block_order(host.slice_widths, 128 / 32);
    REQUIRE(static_cast<std::int64_t>(expected.size()) == blocks);

    const auto sell = upload(host);
    CHECK(sell.order_block_rows == 128);
    std::vector<std::int32_t> order(sell.block_order.size());
    sell.block_order.download(order);
    CHECK(order == expected);
    const auto i16 = upload_sell_i16(host);
    CHECK(i16.order_block_rows == 128);
    CHECK(i16.block_order.size() == expected.size());

    FormatParams p;
    p.sort_window = 2048;
    for (const char* name : {"sell", "sell_i16", "sell_split"}) {
        INFO(name);
        const auto r = gpu::verify(gpu::find_variant(name), a, p);
        INFO(r.message);
        CHECK(r.passed);
    }

    // half a resident wave of 128-row blocks: every block starts at once, no order
    const auto half = static_cast<std::int32_t>(std::int64_t{info.multiprocessors} * threads / 10);
    const auto small = to_sell_c_sigma(convert_values<TestType>(gen::blocks5(half, 8, 7)),
                                       SellCSigmaOptions{32, 2048});
    REQUIRE_FALSE(
        gpu::block_order_pays((small.num_rows + 127) / 128, 128, info.multiprocessors, threads));
    CHECK(upload(small).block_order.empty());
    // one width class (a 7-point stencil: rows of 4..7): no order, blockIdx order
    const auto pde =
        to_sell_c_sigma(convert_values<TestType>(test::pde7(80)), SellCSigmaOptions{32, 2048});
    const auto plain = upload(pde);
    CHECK(plain.order_block_rows == 0);
    CHECK(plain.block_order.empty());
    synchronize();
}
