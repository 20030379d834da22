// Task mode's communication thread (distributed/src/comm_thread.hpp): jobs run one at a time,
// in order, each seen whole by join(); errors come back through join(); with and without the
// spinning hand-offs, including hand-offs after the spin has given up (the sleeping path).
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "comm_thread.hpp"

using spmv::dist::detail::CommThread;

TEST_CASE("The communication thread runs each job whole before join() returns, spinning or not",
          "[mpi][task]")
{
    for (const bool spin : {false, true}) {
        for (const auto spin_for : {std::chrono::microseconds(0), std::chrono::microseconds(2000)}) {
            INFO("spin " << spin << ", spin_for " << spin_for.count() << " us");
            CommThread t(spin, spin_for);
            std::vector<int> seen;  // written by the thread, read here after each join
            long sum = 0;
            for (int k = 0; k < 2000; ++k) {
                t.run([&, k] {
                    seen.push_back(k);
                    sum += k;
                });
                if (k % 500 == 7) {  // a pause longer than the spin: the thread sleeps, then wakes
                    std::this_thread::sleep_for(std::chrono::milliseconds(3));
                }
                t.join();
                REQUIRE(seen.size() == static_cast<std::size_t>(k + 1));
                REQUIRE(seen.back() == k);
            }
            CHECK(sum == 2000L * 1999L / 2);
            // an error in a job comes back from join(), and the thread takes the next job
            t.run([] { throw std::runtime_error("job failed"); });
            CHECK_THROWS_WITH(t.join(), "job failed");
            std::atomic<int> after{0};
            t.run([&] { after = 42; });
            t.join();
            CHECK(after == 42);
        }
    }
    // destroyed while it waits (spinning, then asleep), and right after a job
    { CommThread idle(true); }
    {
        CommThread asleep(true, std::chrono::microseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    {
        CommThread busy(true);
        int x = 0;
        busy.run([&] { x = 1; });
        busy.join();
        CHECK(x == 1);
    }
}
