// A claim's pass criterion, written as data beside the claim in experiments/<name>/claims.toml and
// applied by the report to what the experiment's Summarize() measured: `ours` and the named
// values of its ClaimResult. The experiment measures; the criterion judges.
//
// Grammar (tokens may be separated by spaces; keywords are lower case):
//   criterion := clause { "and" clause }          every clause must hold
//   clause    := operand op operand                     ours >= 0.95, silico < bilevel
//              | [operand] "within" number "%" "of" operand
//                       |S - Y| <= X / 100 * |Y| for `S within X % of Y`, S = ours if omitted
//              | [operand] "within" "factor" number "of" operand
//                       S and Y of one sign, |S| <= X |Y| and |Y| <= X |S| for
//                       `S within factor X of Y` (X >= 1): orders of magnitude, as a paper's
//                       table of a barrier's gaps is reproduced
//              | [operand] "between" operand "and" operand
//                       A <= S <= B (both ends included), S = ours if omitted
//   op        := "<" | "<=" | ">" | ">=" | "==" | "!="
//   operand   := "ours" | name | number
//   name      := [A-Za-z_][A-Za-z0-9_]*, not a keyword: a value the experiment measured
//   number    := a decimal literal, optionally negative: 3, -0.5, 1e-6, 87.84
// `==` and `!=` compare doubles exactly: use them for counts and for values the experiment
// copies from its config, `within` for measured quantities.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace arena {

enum class CompareOp { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };
/// "<", "<=", ">", ">=", "==", "!=".
std::string_view ToString(CompareOp op);

class Criterion {
 public:
  /// Parses `text`. Throws InvalidArgument naming the problem and its column (1-based).
  static Criterion Parse(std::string_view text);

  /// The criterion as written.
  const std::string& text() const { return text_; }
  /// The named values it reads besides `ours`, sorted, without duplicates.
  std::vector<std::string> Names() const;

  struct Outcome {
    bool met = false;
    /// Empty when met; else each clause that does not hold with the values it read
    /// ("ours >= 0.45 does not hold: ours = 0.3"), or the operand that is NaN.
    std::string reason;
  };
  /// Applies the criterion. A NaN operand makes its clause fail (a measurement that produced
  /// no number reproduces nothing). Throws InvalidArgument when the criterion names a value
  /// that `values` lacks, listing the values it has.
  Outcome Evaluate(double ours, const std::map<std::string, double>& values) const;

 private:
  struct Operand {
    enum class Kind { kOurs, kName, kNumber };
    Kind kind = Kind::kNumber;
    std::string name;   // kName
    double number = 0;  // kNumber
    std::string text;   // as written
  };
  struct Clause {
    enum class Kind { kCompare, kWithin, kWithinFactor, kBetween };
    Kind kind = Kind::kCompare;
    Operand subject;                   // kWithin, kBetween: what is judged (ours unless written)
    Operand lhs;                       // kCompare; kBetween: the lower bound
    CompareOp op = CompareOp::kLess;   // kCompare
    Operand rhs;                       // kCompare; kWithin: the target Y; kBetween: the upper bound
    double percent = 0;                // kWithin
    double factor = 1;                 // kWithinFactor
    std::string text;                  // the clause, spaces normalised
  };

  /// The operands a clause reads, in the order it reads them.
  static std::vector<const Operand*> Read(const Clause& clause);

  std::string text_;
  std::vector<Clause> clauses_;
};

}  // namespace arena
