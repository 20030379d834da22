// spmvlab dist link: the model's link measured under the halo exchange's pattern
// (spmv/dist/link_bench.hpp) and fitted (spmv/dist/link_fit.hpp); with --gpu also the pinned
// copies and the host-staged step. Runs under mpiexec with 2 or more ranks (one rank: --gpu's
// copies only). Prints the `--link BW,LAT` that dist plan / bench / chart take.
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/link_bench.hpp>
#include <spmv/dist/link_fit.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/error.hpp>
#include <spmv/model/gpu_profile.hpp>

#include "common.hpp"
#include "dist_cli.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

namespace {

/// "8 B", "4 KiB", "1 MiB" (whole units where they are whole).
std::string size_text(std::int64_t b)
{
    if (b >= (1 << 20) && b % (1 << 20) == 0) return std::to_string(b >> 20) + " MiB";
    if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
    return std::to_string(b) + " B";
}

std::string g4(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

/// fit_link, or nullopt with `why` when the samples cannot be fitted (one size only).
std::optional<LinkFit> try_fit(const std::vector<LinkSample>& s, int messages, std::string& why)
{
    try {
        return fit_link(s, messages);
    } catch (const spmv::InvalidArgument& e) {
        why = spmv::user_message(e.what());
        return std::nullopt;
    }
}

nlohmann::json times_json(const LinkTimes& t)
{
    return {{"median_us", t.median_us}, {"min_us", t.min_us}};
}

nlohmann::json fit_json(const std::optional<LinkFit>& f)
{
    if (!f) return nullptr;
    return {{"latency_us", f->latency_us},
            {"bandwidth_gbs", f->bandwidth_gbs},
            {"usable", f->usable()}};
}

/// "host-a (2 ranks), host-b (2 ranks)"
std::string hosts_text(const std::vector<std::string>& hosts)
{
    std::map<std::string, int> n;
    for (const auto& h : hosts) ++n[h];
    std::string s;
    for (const auto& [h, c] : n) {
        s += (s.empty() ? "" : ", ") + h + " (" + std::to_string(c) + " rank" +
             (c == 1 ? "" : "s") + ")";
    }
    return s;
}

}  // namespace

int run_link(const Comm& comm, const DistCli& o)
{
    LinkBenchOptions lo;
    lo.sizes = byte_sizes("--sizes", o.link_sizes);
    lo.repeat = o.link_repeat;
    lo.gpu = o.gpu;
    const auto m = measure_link(comm, lo);  // the same on every rank
    const bool mpi = m.ranks >= 2;
    const int msgs = m.messages;

    nlohmann::json j = {{"meta", make_meta("dist link")},
                        {"ranks", m.ranks},
                        {"hosts", m.hosts},
                        {"distinct_hosts", m.distinct_hosts},
                        {"mpi", library_version()},
                        {"repeat", m.repeat},
                        {"warmup", m.warmup},
                        {"messages", msgs}};
    if (o.gpu) add_gpu_meta(j["meta"]);  // rank 0's device (rank 0 writes the record)
    const std::string pattern =
        "every rank exchanges at once one message with rank-1 and one with rank+1 (those that "
        "exist): irecv from each, isend to each, one wait for all, host buffers (the halo "
        "exchange's order); each repetition after a barrier, its time the slowest rank's";
    const std::string counted =
        "bytes counted per exchange: what the busiest rank sends (= what it receives), messages "
        "x size (the model's max(bytes sent, received)): 2 x size on 3 or more ranks (a middle "
        "rank has two neighbours), 1 x size on 2 ranks";
    j["pattern"] = pattern;
    j["bytes_counted"] = counted;

    if (comm.rank() == 0) {
        std::printf("dist link: %d rank(s) on %d host(s): %s\n", m.ranks, m.distinct_hosts,
                    hosts_text(m.hosts).c_str());
        if (mpi) {
            std::printf("  %s\n", m.distinct_hosts == 1
                                      ? "one host: the ranks exchange through MPI's shared "
                                        "memory, the host-shm link (not a network)"
                                      : "several hosts: the chain crosses the network between "
                                        "them (ranks of one host pair through shared memory; "
                                        "the slowest pair decides each repetition)");
            std::printf("pattern: %s; %d repetitions after %d warm-ups per size\n%s\n",
                        pattern.c_str(), m.repeat, m.warmup, counted.c_str());
        }
    }

    std::optional<LinkFit> link_fit;
    std::string link_why;
    if (mpi) {
        std::vector<LinkSample> samples;
        for (const auto& s : m.sizes) samples.push_back({s.message_bytes, s.exchange.median_us});
        link_fit = try_fit(samples, msgs, link_why);
        Table t({"size", "median us", "min us", "GB/s", "fit us", "residual us", "residual %"});
        for (std::size_t i = 0; i < m.sizes.size(); ++i) {
            const auto& s = m.sizes[i];
            const double bytes = static_cast<double>(msgs) * static_cast<double>(s.message_bytes);
            const double gbs = bytes / (s.exchange.median_us * 1e3);
            nlohmann::json e = {{"message_bytes", s.message_bytes},
                                {"bytes_counted", static_cast<std::int64_t>(bytes)},
                                {"median_us", s.exchange.median_us},
                                {"min_us", s.exchange.min_us},
                                {"effective_gbs", gbs},
                                {"fit_us", nullptr},
                                {"residual_us", nullptr}};
            std::vector<std::string> row = {size_text(s.message_bytes), fmt(s.exchange.median_us, 2),
                                            fmt(s.exchange.min_us, 2), fmt(gbs, 3)};
            if (link_fit) {
                e["fit_us"] = link_fit->time_us(s.message_bytes);
                e["residual_us"] = link_fit->residual_us[i];
                row.push_back(fmt(link_fit->time_us(s.message_bytes), 2));
                row.push_back(fmt(link_fit->residual_us[i], 2));
                row.push_back(fmt(100.0 * link_fit->residual_fraction[i], 1));
            } else {
                row.insert(row.end(), {"-", "-", "-"});
            }
            j["sizes"].push_back(e);
            t.add(row);
        }
        j["fit"] = fit_json(link_fit);
        if (link_fit) {
            j["fit"]["method"] =
                "least squares of time = messages x latency + messages x size / bandwidth over "
                "the sizes' medians, on relative residuals (weights 1 / time^2)";
            j["fit"]["link_option"] =
                link_fit->usable()
                    ? nlohmann::json("--link " + g4(link_fit->bandwidth_gbs) + "," +
                                     g4(link_fit->latency_us))
                    : nlohmann::json(nullptr);
        }
        if (comm.rank() == 0) {
            std::printf("%s", t.str().c_str());
            const auto& shm = find_link("host-shm");
            if (!link_fit) {
                std::printf("no fit: %s\n", link_why.c_str());
            } else {
                std::printf("fit (least squares of time = %d x latency + %d x size / bandwidth, "
                            "relative residuals): latency %s us per message, bandwidth %s GB/s\n",
                            msgs, msgs, g4(link_fit->latency_us).c_str(),
                            g4(link_fit->bandwidth_gbs).c_str());
                if (link_fit->usable()) {
                    std::printf("use: --link %s,%s  (spmvlab dist plan / bench / chart; the "
                                "built-in %s takes %s GB/s, %s us)\n",
                                g4(link_fit->bandwidth_gbs).c_str(),
                                g4(link_fit->latency_us).c_str(), shm.name.c_str(),
                                g4(shm.bandwidth_gbs).c_str(), g4(shm.latency_us).c_str());
                } else {
                    std::printf("no --link line: the fitted latency or bandwidth is not "
                                "positive (the times are dominated by noise: raise --repeat, or "
                                "measure larger --sizes)\n");
                }
            }
        }
    } else {
        j["sizes"] = nlohmann::json::array();
        j["fit"] = nullptr;
    }

    j["gpu"] = nullptr;
    if (o.gpu) {
        std::vector<LinkSample> d2h, h2d;
        for (const auto& s : m.sizes) {
            d2h.push_back({s.message_bytes, s.d2h.median_us});
            h2d.push_back({s.message_bytes, s.h2d.median_us});
        }
        std::string why;
        const auto d2h_fit = try_fit(d2h, 1, why);
        const auto h2d_fit = try_fit(h2d, 1, why);
        bool assumed = false;
        const auto first_device = m.devices.substr(0, m.devices.find(", "));
        const auto& profile = spmv::model::resolve_profile("auto", first_device, &assumed);
        nlohmann::json g = {{"devices", m.devices},
                            {"profile", profile.name},
                            {"profile_assumed", assumed},
                            {"profile_pcie_gbs", profile.pcie_bandwidth_gbs},
                            {"d2h_fit", fit_json(d2h_fit)},
                            {"h2d_fit", fit_json(h2d_fit)}};
        const bool staged_model = mpi && link_fit && link_fit->usable() && d2h_fit &&
                                  d2h_fit->usable() && h2d_fit && h2d_fit->usable();
        Table t({"size", "D2H us", "min", "GB/s", "H2D us", "min", "GB/s", "staged us", "min",
                 "model us"});
        for (const auto& s : m.sizes) {
            const double b = static_cast<double>(s.message_bytes);
            // the model of the host-staged step: the rank's send buffer (msgs messages) to the
            // host, the exchange, the halo (as many bytes) back, from the fitted numbers
            const std::int64_t staged_bytes = msgs * s.message_bytes;
            const double model = staged_model ? d2h_fit->time_us(staged_bytes) +
                                                    link_fit->time_us(s.message_bytes) +
                                                    h2d_fit->time_us(staged_bytes)
                                              : 0.0;
            nlohmann::json e = {{"message_bytes", s.message_bytes},
                                {"d2h", times_json(s.d2h)},
                                {"h2d", times_json(s.h2d)},
                                {"staged", mpi ? times_json(s.staged) : nlohmann::json(nullptr)},
                                {"staged_model_us",
                                 staged_model ? nlohmann::json(model) : nlohmann::json(nullptr)}};
            g["sizes"].push_back(e);
            t.add({size_text(s.message_bytes), fmt(s.d2h.median_us, 2), fmt(s.d2h.min_us, 2),
                   fmt(b / (s.d2h.median_us * 1e3), 2), fmt(s.h2d.median_us, 2),
                   fmt(s.h2d.min_us, 2), fmt(b / (s.h2d.median_us * 1e3), 2),
                   mpi ? fmt(s.staged.median_us, 2) : "-", mpi ? fmt(s.staged.min_us, 2) : "-",
                   staged_model ? fmt(model, 2) : "-"});
        }
        j["gpu"] = g;
        if (comm.rank() == 0) {
            std::printf("\npinned copies on %s (each rank its node-local GPU, every rank at "
                        "once, the slowest rank's time; one copy of the size each way)%s:\n%s",
                        m.devices.c_str(),
                        mpi ? "; staged = the host-staged step of one exchange: receives "
                              "posted, the send buffer (messages x size) to the host, sends, "
                              "wait, the halo back to the device"
                            : "",
                        t.str().c_str());
            auto line = [](const char* what, const std::optional<LinkFit>& f) {
                if (f) {
                    std::printf("fit %s: %s us + size / %s GB/s\n", what, g4(f->latency_us).c_str(),
                                g4(f->bandwidth_gbs).c_str());
                }
            };
            line("D2H", d2h_fit);
            line("H2D", h2d_fit);
            if (!d2h_fit || !h2d_fit) std::printf("no copy fit: %s\n", why.c_str());
            std::printf("the GPU profile %s%s assumes B_PCI = %s GB/s (model.hpp's T_d2h, "
                        "T_h2d)%s\n",
                        profile.name.c_str(), assumed ? " (no profile for this device: assumed)" : "",
                        g4(profile.pcie_bandwidth_gbs).c_str(),
                        staged_model ? "; model us = fitted D2H + link + H2D" : "");
        }
    }

    collective(comm, [&] {
        if (comm.rank() == 0 && !o.json_out.empty()) {
            write_json(o.json_out, j);
        }
    });
    return 0;
}

}  // namespace spmvlab::dist_cli
