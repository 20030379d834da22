#pragma once
// Command line of spmvlab-gui:
//   spmvlab-gui [FILE.mtx]                         the window, on FILE or the built-in example
//   spmvlab-gui --version | --help                 (no display needed, like --screenshot)
//   spmvlab-gui --screenshot OUT.png|OUT.svg [--view NAME] [--matrix FILE] [--format NAME]
//               [--warp W] [--br B] [--slice C] [--sigma S] [--step K] [--profile NAME]
//               [--size WxH] [--presentation] [--generate gen:NAME[:param=value,...]]
//               [--ranks N] [--partition rows|nnz|metis] [--link NAME] [--timeline FILE.json]
//               [--warp-timeline FILE.json]  (view warps: a warp timeline measured on a GPU,
//               spmvlab bench --gpu --warp-timeline; exit 3 when it cannot be read)
//       --matrix and --generate take the CLI's generator spec gen:NAME[:param=value,...]
//       (random stream: key seed); --generate also the older NAME[:param=value,...][@seed];
//       --ranks, --partition, --link and --timeline (a recorded timeline shown instead of the
//       model's prediction; exit 3 when it cannot be read) set up the distribution view.
//       renders one view offscreen and exits: 0 on success, 2 for a bad option (unknown view,
//       format, profile, out-of-range number), 3 when the matrix cannot be loaded or a view
//       fails, 4 when the image cannot be written. Messages go to stderr.
//   --quit-after MS                                closes the window after MS (smoke tests)
#include <QStringList>

class QApplication;

/// Runs the application as the arguments say; returns the process exit code.
int runSpmvLab(QApplication& app, const QStringList& arguments);
