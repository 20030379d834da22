// Property tests over every registered format x the test zoo x several parameter sets:
// reference SpMV equals CSR, to_csr round-trips exactly, validate passes, footprints add up.
#include <catch2/catch.hpp>

#include <set>

#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;

namespace {

std::vector<FormatParams> parameter_sets()
{
    std::vector<FormatParams> sets(4);
    sets[1].warp_size = 4;
    sets[1].block_rows = 4;
    sets[1].slice_height = 4;
    sets[1].sort_window = 8;
    sets[1].pitch_bytes = 64;
    sets[1].hyb_width = 2;
    sets[1].diag_pad = 4;
    sets[2].warp_size = 8;
    sets[2].block_rows = 8;
    sets[2].slice_height = 2;
    sets[2].sort_window = 1 << 20;
    sets[2].pitch_bytes = 4;
    sets[2].hyb_width = 0;
    sets[2].diag_pad = 1;
    sets[3].warp_size = 32;
    sets[3].block_rows = 32;
    sets[3].slice_height = 32;
    sets[3].sort_window = 64;
    sets[3].hyb_width = 1000;
    return sets;
}

}  // namespace

TEST_CASE("every registered format matches CSR on the test zoo", "[formats][properties]")
{
    const auto zoo = test::zoo();
    const auto sets = parameter_sets();
    for (const auto& info : formats()) {
        for (const auto& m : zoo) {
            for (std::size_t s = 0; s < sets.size(); ++s) {
                INFO("format " << info.name << ", matrix " << m.name << ", parameter set " << s);
                const auto any = build(info.name, m.a, sets[s]);
                REQUIRE_NOTHROW(validate(any));
                CHECK(to_csr(any) == m.a);
                CHECK(nnz(any) == nnz(m.a));
                CHECK(num_rows(any) == m.a.num_rows);
                CHECK(num_cols(any) == m.a.num_cols);

                const auto x = test::random_vector(static_cast<std::size_t>(m.a.num_cols), 11);
                const auto y0 = test::random_vector(static_cast<std::size_t>(m.a.num_rows), 12);
                const double alpha = 1.25;
                const double beta = -0.5;
                auto expected = y0;
                spmv_reference(m.a, alpha, std::span<const double>(x), beta,
                               std::span<double>(expected));
                auto got = y0;
                spmv_reference(any, alpha, std::span<const double>(x), beta,
                               std::span<double>(got));
                CHECK(test::relative_error(got, expected) <= 1e-12);

                // beta == 0 must overwrite y, even NaN
                std::vector<double> y_nan(y0.size(), std::nan(""));
                std::vector<double> expect0(y0.size());
                spmv_reference(m.a, alpha, std::span<const double>(x), 0.0,
                               std::span<double>(expect0));
                spmv_reference(any, alpha, std::span<const double>(x), 0.0,
                               std::span<double>(y_nan));
                CHECK(test::relative_error(y_nan, expect0) <= 1e-12);

                // permuted basis: y_perm[k] == y[perm[k]]
                const auto perm = row_permutation(any);
                CHECK(perm.size() == (info.permuted ? y0.size() : 0u));
                if (info.permuted) {
                    std::vector<double> yp(y0.size());
                    for (std::size_t k = 0; k < perm.size(); ++k) {
                        yp[k] = y0[static_cast<std::size_t>(perm[k])];
                    }
                    spmv_reference(any, alpha, std::span<const double>(x), beta,
                                   std::span<double>(yp), RowOrder::permuted);
                    std::vector<double> back(y0.size());
                    for (std::size_t k = 0; k < perm.size(); ++k) {
                        back[static_cast<std::size_t>(perm[k])] = yp[k];
                    }
                    CHECK(test::relative_error(back, expected) <= 1e-12);
                }

                const auto fp = footprint(any);
                CHECK(fp.value_bytes == static_cast<std::size_t>(nnz(m.a)) * sizeof(double));
                CHECK(fp.stored_entries - fp.padding_entries >= nnz(m.a));
                CHECK(fp.padding_entries >= 0);
                CHECK(fp.total_bytes() >= fp.value_bytes + fp.index_bytes);

                const auto w = thread_work(any);
                CHECK(w.iterations.size() == w.useful.size());
                CHECK(w.iterations.size() == w.stored.size());
                std::int64_t useful = 0;
                for (std::size_t t = 0; t < w.useful.size(); ++t) {
                    CHECK(w.useful[t] <= w.iterations[t]);
                    useful += w.useful[t];
                }
                CHECK(useful == nnz(m.a));
            }
        }
    }
}

TEST_CASE("single precision builds agree with double", "[formats][properties]")
{
    const auto a = test::random_csr(150, 120, 0, 20, 42);
    const auto af = convert_values<float>(a);
    const auto x = test::random_vector(120, 1);
    std::vector<float> xf(x.begin(), x.end());
    std::vector<double> ref(150);
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(ref));
    for (const auto& info : formats()) {
        INFO("format " << info.name);
        const auto any = build(info.name, af);
        std::vector<float> y(150, 0.f);
        spmv_reference(any, 1.0f, std::span<const float>(xf), 0.0f, std::span<float>(y));
        std::vector<double> yd(y.begin(), y.end());
        CHECK(test::relative_error(yd, ref) < 1e-5);
    }
}

TEST_CASE("registry names are unique and lookups fail clearly", "[formats][registry]")
{
    std::set<std::string_view> names;
    for (const auto& f : formats()) {
        CHECK(names.insert(f.name).second);
        CHECK_FALSE(f.description.empty());
    }
    CHECK_THROWS_WITH(find_format("nope"), Catch::Contains("unknown format 'nope'"));
    FormatParams p;
    CHECK_THROWS_AS(set(p, Param::block_rows, 0), InvalidArgument);
    set(p, Param::block_rows, 4);
    CHECK(get(p, Param::block_rows) == 4);
}

TEST_CASE("build from a CSR given up equals build from a copy, in every format", "[formats][registry]")
{
    const auto zoo = test::zoo();
    const auto sets = parameter_sets();
    for (const auto& info : formats()) {
        for (const auto& m : zoo) {
            INFO("format " << info.name << ", matrix " << m.name);
            auto given = m.a;
            const auto* arrays = given.col_idxs.data();
            const auto built = build(info.name, std::move(given), sets[1]);
            const auto copied = build(info.name, m.a, sets[1]);
            CHECK(built.index() == copied.index());  // the same format
            CHECK(to_csr(built) == m.a);
            CHECK(footprint(built).total_bytes() == footprint(copied).total_bytes());
            CHECK(footprint(built).padding_entries == footprint(copied).padding_entries);
            CHECK(given.col_idxs.empty());  // released, not held beside it
            if (info.name == "csr" && !m.a.col_idxs.empty()) {  // taken over, not copied
                CHECK(std::get<Csr<double, std::int32_t>>(built).col_idxs.data() == arrays);
            }
        }
    }
    auto a = zoo.front().a;
    CHECK_THROWS_WITH(build("nope", std::move(a)), Catch::Contains("unknown format 'nope'"));
    CHECK(a == zoo.front().a);  // an unknown name leaves the input alone
}
