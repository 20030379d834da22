// Measured strong scaling next to the model's (spmv/dist/scaling_series.hpp): how dist chart
// groups dist bench runs, which paths get a model curve, and which curve, rank count and mode
// every measured time is held against. The curves are built by hand with a distinct time per
// (path, reuse, ranks, mode), so a wrong lookup shows as a wrong number.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/scaling_series.hpp>
#include <spmv/error.hpp>

using namespace spmv;
using namespace spmv::dist;

namespace {

BenchRun run(std::string matrix, int ranks, std::string path, std::string precision = "double",
             std::string partition = "nnz", std::string format = "csr")
{
    BenchRun r;
    r.matrix = std::move(matrix);
    r.num_ranks = ranks;
    r.exchange_path = std::move(path);
    r.precision = std::move(precision);
    r.partition = std::move(partition);
    r.format = std::move(format);
    return r;
}

/// A model curve: per rank count the four mode times in us (vector, naive, overlap, task).
struct Row {
    int ranks;
    double vector, naive, overlap, task;
};
ScalingResult curve(const std::vector<Row>& rows)
{
    ScalingResult sc;
    for (const auto& r : rows) {
        ScalingPoint p;
        p.num_ranks = r.ranks;
        p.prediction.time_s = {r.vector * 1e-6, r.naive * 1e-6, r.overlap * 1e-6, r.task * 1e-6};
        sc.points.push_back(p);
    }
    return sc;
}

/// Two paths over ranks 1, 2, 4 (host-staged first, as a group that met it first).
std::vector<PathModel> two_paths()
{
    return {{"host-staged", curve({{1, 50, 51, 52, 53}, {2, 30, 31, 32, 33}, {4, 20, 21, 22, 23}}),
             curve({{1, 45, 46, 47, 48}, {2, 27, 28, 29, 24}, {4, 17, 18, 19, 16}})},
            {"cuda-ipc", curve({{1, 40, 41, 42, 43}, {2, 20, 21, 22, 23}, {4, 10, 11, 12, 13}}),
             curve({{1, 35, 36, 37, 38}, {2, 15, 16, 17, 18}, {4, 7, 8, 9, 6}})}};
}

}  // namespace

TEST_CASE("dist chart groups runs by matrix, precision, partition and format, first seen first",
          "[scaling_series]")
{
    const std::vector<BenchRun> runs{
        run("gen:pde:size=12", 2, "cuda-ipc"),                              // 0
        run("gen:pde:size=12", 4, "host-staged"),                           // 1
        run("gen:pde:size=12", 1, "none"),                                  // 2
        run("gen:pde:size=12", 2, "host", "single"),                        // 3
        run("gen:pde:size=10", 1, "none"),                                  // 4
        run("gen:pde:size=12", 2, "cuda-aware", "double", "rows"),          // 5
        run("gen:pde:size=12", 4, "cuda-ipc"),                              // 6
        run("gen:pde:size=12", 1, "none", "single"),                        // 7
        run("gen:pde:size=12", 2, "host-staged", "double", "nnz", "sell"),  // 8
    };

    const auto groups = group_runs(runs);

    CHECK(groups == std::vector<std::vector<std::size_t>>{{0, 1, 2, 6}, {3, 7}, {4}, {5}, {8}});
    CHECK(group_runs(std::vector<BenchRun>{}).empty());
}

TEST_CASE("dist chart keeps runs apart whose fields differ even where joined names agree",
          "[scaling_series]")
{
    // "a|b" + "c" and "a" + "b|c" join to the same "a|b|c": the fields, not a joined key, decide
    const std::vector<BenchRun> runs{run("a|b", 2, "host", "c"), run("a", 2, "host", "b|c")};

    CHECK(group_runs(runs) == std::vector<std::vector<std::size_t>>{{0}, {1}});
}

TEST_CASE("dist chart's rank axis joins the requested counts and the runs', ascending, once",
          "[scaling_series]")
{
    const std::vector<BenchRun> runs{run("m", 2, "cuda-ipc"), run("m", 4, "host-staged"),
                                     run("m", 1, "none"), run("m", 3, "cuda-ipc"),
                                     run("m", 16, "cuda-ipc")};
    const std::vector<std::size_t> first_four{0, 1, 2, 3};

    CHECK(rank_axis({8, 1, 4, 2}, runs, first_four) == std::vector<int>{1, 2, 3, 4, 8});
    CHECK(rank_axis({}, runs, first_four) == std::vector<int>{1, 2, 3, 4});
    CHECK(rank_axis({2, 2}, runs, std::vector<std::size_t>{4}) == std::vector<int>{2, 16});
}

TEST_CASE("dist chart draws one model curve per exchange path, none only for one-rank groups",
          "[scaling_series]")
{
    const std::vector<BenchRun> runs{run("m", 1, "none"),     run("m", 4, "host-staged"),
                                     run("m", 2, "cuda-ipc"), run("m", 4, "cuda-ipc"),
                                     run("m", 1, "none"),     run("m", 2, "host")};

    CHECK(model_paths(runs, std::vector<std::size_t>{0, 1, 2, 3, 4}) ==
          std::vector<std::string>{"host-staged", "cuda-ipc"});
    CHECK(model_paths(runs, std::vector<std::size_t>{3, 1}) ==
          std::vector<std::string>{"cuda-ipc", "host-staged"});
    CHECK(model_paths(runs, std::vector<std::size_t>{0, 4}) == std::vector<std::string>{"none"});
    CHECK(model_paths(runs, std::vector<std::size_t>{4, 5}) == std::vector<std::string>{"host"});
}

TEST_CASE("dist chart reads the model at a rank count and mode, 0 where the curve has no point",
          "[scaling_series]")
{
    const auto c = curve({{1, 40, 41, 42, 43}, {2, 20, 21, 22, 23}, {4, 10, 11, 12, 13}});

    CHECK(model_time_us(c, 2, Mode::vector) == Approx(20));
    CHECK(model_time_us(c, 2, Mode::naive) == Approx(21));
    CHECK(model_time_us(c, 4, Mode::overlap) == Approx(12));
    CHECK(model_time_us(c, 1, Mode::task) == Approx(43));
    CHECK(model_time_us(c, 3, Mode::task) == 0.0);
    CHECK(model_time_us(ScalingResult{}, 1, Mode::vector) == 0.0);
}

TEST_CASE(
    "dist chart holds a run against its path's model, a one-rank run against the first "
    "path by name",
    "[scaling_series]")
{
    const auto models = two_paths();

    CHECK(model_for(models, "host-staged") == &models[0]);
    CHECK(model_for(models, "cuda-ipc") == &models[1]);
    // by name (cuda-ipc < host-staged), not by the order the paths were met
    CHECK(model_for(models, "none") == &models[1]);
    CHECK(model_for(std::vector<PathModel>{}, "none") == nullptr);
}

TEST_CASE("dist chart's model band is task mode at both reuse ends plus vector mode at alpha 1",
          "[scaling_series]")
{
    const auto models = two_paths();

    const auto s = model_series(models[1]);

    using Catch::Matchers::Approx;
    CHECK_THAT(s.task_best_us, Approx(std::vector<double>{38, 18, 6}));
    CHECK_THAT(s.task_worst_us, Approx(std::vector<double>{43, 23, 13}));
    CHECK_THAT(s.vector_worst_us, Approx(std::vector<double>{40, 20, 10}));
    PathModel uneven{"cuda-ipc", curve({{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}),
                     curve({{1, 1, 1, 1, 1}, {4, 1, 1, 1, 1}})};
    CHECK_THROWS_AS(model_series(uneven), InvalidArgument);
}

TEST_CASE(
    "dist chart compares every measured mode with its path's model and the first "
    "single-process time with one rank",
    "[scaling_series]")
{
    std::vector<BenchRun> runs{run("m", 2, "cuda-ipc"), run("m", 4, "host-staged"),
                               run("m", 1, "none"), run("m", 3, "cuda-ipc")};
    runs[0].modes = {{Mode::vector, 25.0, 90.0}, {Mode::task, 21.0, 90.0}};
    runs[1].modes = {{Mode::naive, 30.0, 80.0}, {Mode::task, 24.0, std::nullopt}};
    runs[2].modes = {{Mode::overlap, 44.0, std::nullopt}};
    runs[3].modes = {{Mode::task, 17.0, std::nullopt}};
    const auto models = two_paths();

    const auto rows = compare_with_model(runs, std::vector<std::size_t>{0, 1, 2, 3}, models);

    REQUIRE(rows.size() == 7);
    struct Expected {
        std::size_t run;
        std::optional<Mode> mode;
        int ranks;
        std::string path;
        double measured, alpha1, alpha_min;
    };
    const std::vector<Expected> expected{
        {0, Mode::vector, 2, "cuda-ipc", 25, 20, 15},
        {0, std::nullopt, 1, "none", 90, 40, 35},  // the baseline: cuda-ipc's vector at 1 rank
        {0, Mode::task, 2, "cuda-ipc", 21, 23, 18},
        {1, Mode::naive, 4, "host-staged", 30, 21, 18},  // 80 us: the baseline is taken once
        {1, Mode::task, 4, "host-staged", 24, 23, 16},
        {2, Mode::overlap, 1, "none", 44, 42, 37},  // one rank: cuda-ipc, first by name
        {3, Mode::task, 3, "cuda-ipc", 17, 0, 0},   // no model point at 3 ranks
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i);
        CHECK(rows[i].run == expected[i].run);
        CHECK(rows[i].mode == expected[i].mode);
        CHECK(rows[i].num_ranks == expected[i].ranks);
        CHECK(rows[i].exchange_path == expected[i].path);
        CHECK(rows[i].measured_us == expected[i].measured);
        CHECK(rows[i].model_alpha1_us == Approx(expected[i].alpha1));
        CHECK(rows[i].model_alpha_min_us == Approx(expected[i].alpha_min));
    }
    CHECK(compare_with_model(runs, std::vector<std::size_t>{3}, {}).front().model_alpha1_us == 0.0);
}
