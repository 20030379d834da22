// Measured strong scaling next to the model's (see scaling_series.hpp): grouping of dist bench
// runs, the model curves per exchange path and the measured-against-model table.
#include <spmv/dist/scaling_series.hpp>

#include <algorithm>
#include <tuple>

#include <spmv/error.hpp>

namespace spmv::dist {

namespace {

auto group_key(const BenchRun& r)
{
    return std::tie(r.matrix, r.precision, r.partition, r.format);
}

}  // namespace

std::vector<std::vector<std::size_t>> group_runs(std::span<const BenchRun> runs)
{
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto same = [&](const std::vector<std::size_t>& g) {
            return group_key(runs[g.front()]) == group_key(runs[i]);
        };
        if (auto it = std::find_if(groups.begin(), groups.end(), same); it != groups.end()) {
            it->push_back(i);
        } else {
            groups.push_back({i});
        }
    }
    return groups;
}

std::vector<int> rank_axis(std::vector<int> requested, std::span<const BenchRun> runs,
                           std::span<const std::size_t> group)
{
    for (auto i : group) {
        requested.push_back(runs[i].num_ranks);
    }
    std::sort(requested.begin(), requested.end());
    requested.erase(std::unique(requested.begin(), requested.end()), requested.end());
    return requested;
}

std::vector<std::string> model_paths(std::span<const BenchRun> runs,
                                     std::span<const std::size_t> group)
{
    const bool only_single = std::all_of(group.begin(), group.end(), [&](std::size_t i) {
        return runs[i].exchange_path == "none";
    });
    std::vector<std::string> paths;
    for (auto i : group) {
        const auto& path = runs[i].exchange_path;
        if ((path == "none" && !only_single) ||
            std::find(paths.begin(), paths.end(), path) != paths.end()) {
            continue;
        }
        paths.push_back(path);
    }
    return paths;
}

double model_time_us(const ScalingResult& curve, int num_ranks, Mode mode)
{
    for (const auto& p : curve.points) {
        if (p.num_ranks == num_ranks) {
            return p.prediction.time_s[mode] * 1e6;
        }
    }
    return 0.0;
}

const PathModel* model_for(std::span<const PathModel> models, std::string_view path)
{
    const PathModel* first = nullptr;  // in name order
    for (const auto& m : models) {
        if (m.path == path) {
            return &m;
        }
        if (first == nullptr || m.path < first->path) {
            first = &m;
        }
    }
    return first;
}

ModelSeries model_series(const PathModel& model)
{
    const auto& worst = model.worst.points;
    const auto& best = model.best.points;
    SPMV_EXPECTS(worst.size() == best.size() &&
                     std::equal(worst.begin(), worst.end(), best.begin(),
                                [](const auto& w, const auto& b) {
                                    return w.num_ranks == b.num_ranks;
                                }),
                 "the model curves of path " + model.path + " are over different rank counts");
    ModelSeries s;
    for (std::size_t i = 0; i < worst.size(); ++i) {
        s.task_best_us.push_back(best[i].prediction.time_s.task * 1e6);
        s.task_worst_us.push_back(worst[i].prediction.time_s.task * 1e6);
        s.vector_worst_us.push_back(worst[i].prediction.time_s.vector * 1e6);
    }
    return s;
}

std::vector<ModelComparison> compare_with_model(std::span<const BenchRun> runs,
                                                std::span<const std::size_t> group,
                                                std::span<const PathModel> models)
{
    const auto against = [&](std::string_view path, int n, Mode mode, ModelComparison& c) {
        if (const auto* m = model_for(models, path)) {
            c.model_alpha1_us = model_time_us(m->worst, n, mode);
            c.model_alpha_min_us = model_time_us(m->best, n, mode);
        }
    };
    std::vector<ModelComparison> rows;
    bool have_single = false;
    for (auto i : group) {
        const auto& r = runs[i];
        for (const auto& md : r.modes) {
            ModelComparison c;
            c.run = i;
            c.mode = md.mode;
            c.num_ranks = r.num_ranks;
            c.exchange_path = r.exchange_path;
            c.measured_us = md.median_us;
            against(r.exchange_path, r.num_ranks, md.mode, c);
            rows.push_back(c);
            if (!have_single && md.single_process_us) {
                have_single = true;
                ModelComparison s;  // mode nullopt: the single-process baseline
                s.run = i;
                s.num_ranks = 1;
                s.exchange_path = "none";
                s.measured_us = *md.single_process_us;
                against("none", 1, Mode::vector, s);
                rows.push_back(s);
            }
        }
    }
    return rows;
}

}  // namespace spmv::dist
