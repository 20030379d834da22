// Host experiment behind docs/benchmarks/solvers_h100.md, "Session 7": why MPIR-CG's float
// inner CG needs more iterations than double CG in the last refinement steps on pde100.
// A standalone simulation (not part of the library): a 7-point Laplacian on a K^3 grid, b = ones,
// x0 = 0, tol 1e-10, and MPIR-CG exactly as lib/include/spmv/solvers/cg.hpp runs it on the GPU
// (inner CG continued across refinement steps, inner SpMV summed in double and rounded once).
//
// build: g++ -O3 -march=native -fopenmp -o mpir_tail scripts/experiments/mpir_tail.cpp
// usage: mpir_tail K double            plain double CG (PF=1: p stored rounded to float)
//        mpir_tail K PQRD [R] [keep]   MPIR-CG, inner reduction R (default 1e-2), keep = 1
//                                      continues the inner direction (0 restarts it); the four
//                                      digits give the inner storage of p, q, r, d: 1 = double,
//                                      0 = float (0000 = what the GPU runs)
// environment (MPIR): RMODE = how the outer residual r/||r|| becomes the inner right-hand side:
//   0 float rounding (the GPU's demote), 1 random relative noise EPS, 2 random absolute noise,
//   3 float rounding error scaled by EPS, 4 exact (no rounding), 5 / 6 plus EPS times the
//   lowest / highest eigenvector of the Laplacian.
// Prints one line per refinement step: inner iterations, running total, true residual.
// MPIR-CG (continued direction) simulation on a 7-point Laplacian: float inner CG with double sums.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstring>
#include <type_traits>
using namespace std;
static int K; static double EPS = getenv("EPS") ? atof(getenv("EPS")) : 0; static int RMODE = getenv("RMODE") ? atoi(getenv("RMODE")) : 0;
#include <random>
static std::mt19937_64 rng(42);
static long N;
template <class T, class S>
void spmv(const vector<T>& p, vector<S>& q)
{
#pragma omp parallel for
    for (long i = 0; i < N; ++i) {
        long z = i / (K * K), y = (i / K) % K, x = i % K;
        double s = 6.0 * (double)p[i];
        if (x > 0) s -= p[i - 1];
        if (x < K - 1) s -= p[i + 1];
        if (y > 0) s -= p[i - K];
        if (y < K - 1) s -= p[i + K];
        if (z > 0) s -= p[i - K * K];
        if (z < K - 1) s -= p[i + K * K];
        q[i] = (S)s;
    }
}
template <class A, class B> double dot(const vector<A>& a, const vector<B>& b)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < N; ++i) s += (double)a[i] * (double)b[i];
    return s;
}

template <class TP, class TQ, class TR, class TD>
void mpir(vector<double>& b, vector<double>& x, vector<double>& r, double bn, double tol, double R, bool keep)
{
    vector<TP> p(N); vector<TQ> q(N); vector<TR> rf(N); vector<TD> d(N); vector<double> tmp(N);
    double pq_keep = 0; bool has = false; int total = 0;
    spmv(x, tmp);
    for (long i = 0; i < N; ++i) r[i] = b[i] - tmp[i];
    double rel = sqrt(dot(r, r)) / bn;
    int outer = 0;
    while (rel > tol) {
        double itol = max(R, min(0.1 * tol / rel, 0.1));
        double rn = rel * bn;
        { std::uniform_real_distribution<double> U(-1.0, 1.0);
          for (long i = 0; i < N; ++i) { double v = r[i] / rn; double w;
            if (RMODE == 0) w = (float)v;                      // float rounding
            else if (RMODE == 1) w = v * (1.0 + EPS * U(rng));  // random relative noise
            else if (RMODE == 2) w = v + EPS * U(rng) / 1000.0; // random absolute noise (entries ~1e-3)
            else if (RMODE == 3) { w = (float)v; w = v + (w - v) * EPS; } // float rounding error scaled by EPS
            else if (RMODE == 5 || RMODE == 6) { long zz = i / (K * K), yy = (i / K) % K, xx = i % K; double h = M_PI / (K + 1);
                double e = sin(h * (xx + 1)) * sin(h * (yy + 1)) * sin(h * (zz + 1)) * pow(2.0 / (K + 1), 1.5);
                if (RMODE == 6) e *= ((xx + yy + zz) % 2 ? -1 : 1);
                w = v + EPS * e; }
            else w = v;
            rf[i] = (TR)w; d[i] = 0; } }
        bool line = false;
        if (has && keep) {
            double beta = -dot(rf, q) / pq_keep;
            TP bf = (TP)beta;
            for (long i = 0; i < N; ++i) p[i] = (TP)(rf[i] + bf * p[i]);
            line = true;
        } else {
            for (long i = 0; i < N; ++i) p[i] = (TP)rf[i];
        }
        double rho = dot(rf, rf);
        int it = 0;
        while (true) {
            spmv(p, q);
            double pq = dot(p, q);
            double num = line ? dot(rf, p) : rho;
            line = false;
            double a = num / pq;
            double rr = 0;
#pragma omp parallel for reduction(+ : rr)
            for (long i = 0; i < N; ++i) {
                d[i] += (TD)a * (TD)p[i];
                rf[i] -= (TR)a * (TR)q[i];
                rr += (double)rf[i] * rf[i];
            }
            ++it; pq_keep = pq; has = true;
            if (sqrt(rr) <= itol || it >= 1000) break;
            double be = rr / rho; rho = rr; TP bf = (TP)be;
            for (long i = 0; i < N; ++i) p[i] = (TP)(rf[i] + bf * p[i]);
        }
        total += it;
        for (long i = 0; i < N; ++i) x[i] += rn * (double)d[i];
        spmv(x, tmp);
        for (long i = 0; i < N; ++i) r[i] = b[i] - tmp[i];
        rel = sqrt(dot(r, r)) / bn;
        ++outer;
        printf("outer %d inner %d total %d rel %.3e\n", outer, it, total, rel);
    }
}
void run_dispatch(int code, vector<double>& b, vector<double>& x, vector<double>& r, double bn, double tol, double R, bool keep)
{
#define C(a,b_,c,d_,TA,TB,TC,TD) if (code == a*1000+b_*100+c*10+d_) return mpir<TA,TB,TC,TD>(b,x,r,bn,tol,R,keep);
#define L(v) conditional_t<v, double, float>
    C(0,0,0,0,float,float,float,float)
    C(0,0,0,1,float,float,float,double)
    C(0,0,1,0,float,float,double,float)
    C(0,0,1,1,float,float,double,double)
    C(0,1,0,0,float,double,float,float)
    C(0,1,0,1,float,double,float,double)
    C(0,1,1,0,float,double,double,float)
    C(0,1,1,1,float,double,double,double)
    C(1,0,0,0,double,float,float,float)
    C(1,0,0,1,double,float,float,double)
    C(1,0,1,0,double,float,double,float)
    C(1,0,1,1,double,float,double,double)
    C(1,1,0,0,double,double,float,float)
    C(1,1,0,1,double,double,float,double)
    C(1,1,1,0,double,double,double,float)
    C(1,1,1,1,double,double,double,double)
}
int main(int argc, char** argv)
{
    K = atoi(argv[1]);
    const char* mode = argv[2];  // "double" (plain double CG) | "f" (d float) | "dx" (d double) | "drx" (d,r double)
    double R = argc > 3 ? atof(argv[3]) : 1e-2;
    N = (long)K * K * K;
    vector<double> b(N, 1.0), x(N, 0.0), r(N);
    double tol = 1e-10, bn = sqrt(dot(b, b));
    if (!strcmp(mode, "double")) {
        vector<double> p(N), q(N);
        r = b; p = r; double rho = dot(r, r); int it = 0;
        const bool pf = getenv("PF") != nullptr;  // store p rounded to float
        if (pf) for (auto& v : p) v = (float)v;
        while (true) {
            spmv(p, q); double a = rho / dot(p, q);
            for (long i = 0; i < N; ++i) { x[i] += a * p[i]; r[i] -= a * q[i]; }
            double rr = dot(r, r); ++it;
            double rel = sqrt(rr) / bn;
            if (it % 20 == 0 || rel < tol) printf("it %d rel %.3e\n", it, rel);
            if (rel < tol) break;
            double be = rr / rho; rho = rr;
            for (long i = 0; i < N; ++i) p[i] = pf ? (double)(float)(r[i] + be * p[i]) : r[i] + be * p[i];
        }
        return 0;
    }
    int code = atoi(mode); // 4 digits p q r d: 1 = double
    R = argc > 3 ? atof(argv[3]) : 1e-2;
    bool keep = argc > 4 ? atoi(argv[4]) : 1;
    run_dispatch(code, b, x, r, bn, tol, R, keep);
}
