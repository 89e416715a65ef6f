#include "experiments/tpush/tpush_pushes.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/tpush/tpush_pushes_data.h"

namespace arena {

namespace tpush_pushes {

double Cell(const ResultTable& t, int row, const std::string& column, const std::string& source) {
  const double x = t.Number(row, column);
  if (!std::isfinite(x)) {
    throw ParseError(source, "row " + std::to_string(row + 2) + ", column " + column,
                     "'" + t.Text(row, column) + "' is not a finite number");
  }
  return x;
}

}  // namespace tpush_pushes

Vec2 PushSequence::TargetAt(double t) const {
  if (path.empty()) return Vec2::Zero();
  if (t <= path.front().t) return path.front().target;
  for (std::size_t k = 1; k < path.size(); ++k) {
    if (t <= path[k].t) {
      const double s = (t - path[k - 1].t) / (path[k].t - path[k - 1].t);
      return (1.0 - s) * path[k - 1].target + s * path[k].target;
    }
  }
  return path.back().target;
}

std::vector<PushSequence> ParsePushSequences(const std::string& csv_text, const std::string& source_name) {
  using tpush_pushes::Cell;
  const ResultTable t = ResultTable::ParseCsv(csv_text, source_name);
  std::vector<PushSequence> out;
  for (int row = 0; row < t.num_rows(); ++row) {
    const double index = Cell(t, row, "sequence", source_name);
    const std::string where = "row " + std::to_string(row + 2);
    if (out.empty() || out.back().index != static_cast<int>(index)) {
      if (index != std::round(index) || index < 1 || (!out.empty() && index <= out.back().index)) {
        throw ParseError(source_name, where, "sequence numbers must be integers >= 1, in increasing order");
      }
      PushSequence s;
      s.index = static_cast<int>(index);
      s.goal = Vec3(Cell(t, row, "goal_x_m", source_name), Cell(t, row, "goal_y_m", source_name),
                    Cell(t, row, "goal_yaw_deg", source_name) * M_PI / 180.0);
      out.push_back(s);
    }
    PushSequence& s = out.back();
    const FingerWaypoint w{Cell(t, row, "t_s", source_name),
                           Vec2(Cell(t, row, "finger_x_m", source_name), Cell(t, row, "finger_y_m", source_name))};
    if (s.path.empty() ? w.t != 0.0 : w.t <= s.path.back().t) {
      throw ParseError(source_name, where, "a sequence's times must start at 0 and increase");
    }
    s.path.push_back(w);
  }
  return out;
}

std::string FormatPushSequences(const std::vector<PushSequence>& sequences) {
  std::string out = "sequence,goal_x_m,goal_y_m,goal_yaw_deg,t_s,finger_x_m,finger_y_m\n";
  char line[256];
  for (const PushSequence& s : sequences) {
    for (const FingerWaypoint& w : s.path) {
      std::snprintf(line, sizeof line, "%d,%.4f,%.4f,%.2f,%.4f,%.5f,%.5f\n", s.index, s.goal.x(), s.goal.y(),
                    s.goal.z() * 180.0 / M_PI, w.t, w.target.x(), w.target.y());
      out += line;
    }
  }
  return out;
}

const std::vector<PushSequence>& CommittedPushSequences() {
  static const std::vector<PushSequence> sequences =
      ParsePushSequences(kTPushPushesCsv, "experiments/tpush/tpush_pushes.csv");
  return sequences;
}

}  // namespace arena
