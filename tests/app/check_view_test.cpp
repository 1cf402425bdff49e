// The Check view through the app (no GL): the example's diagnosis, a pasted tensor in the URL (rows
// separated by ';', since a URL value holds no newline) round-tripping and diagnosed, errors naming keys,
// and the verdict in describe() (what the page's live region reads).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/export.h"

using posenc::app::App;

namespace {

// cos of RoPE (dim 4, base 10000) at positions 0..3 in the interleaved layout: [c0, c0, c1, c1], with
// w_0 = 1 and w_1 = 10000^(-2/4) = 0.01.
std::string interleaved_cos_rows() {
  std::string rows;
  char buf[128];
  for (int p = 0; p < 4; ++p) {
    const double c0 = std::cos(p * 1.0), c1 = std::cos(p * 0.01);
    std::snprintf(buf, sizeof buf, "%s%.17g %.17g %.17g %.17g", p ? "; " : "", c0, c0, c1, c1);
    rows += buf;
  }
  return rows;
}

std::string url_encode(const std::string& s) {
  std::string out;
  char buf[4];
  for (unsigned char ch : s) {
    if (std::isalnum(ch) || ch == '.' || ch == '-' || ch == '_') {
      out += char(ch);
    } else {
      std::snprintf(buf, sizeof buf, "%%%02X", ch);
      out += buf;
    }
  }
  return out;
}

}  // namespace

TEST(CheckView, TheDefaultExampleIsALayoutSwapAndSaysSo) {
  App a;
  a.load_state_query("view=check");
  EXPECT_EQ(a.notices(), "");
  const std::string d = a.describe();
  EXPECT_NE(d.find("Example (built in)"), std::string::npos) << d;
  EXPECT_NE(d.find("Verdict: mismatch"), std::string::npos) << d;
  EXPECT_NE(d.find("Top cause: layout, explains 100%"), std::string::npos) << d;
}

TEST(CheckView, APastedTensorRoundTripsAndIsDiagnosed) {
  App a;
  const std::string q = "view=check&kind=cos&dim=4&source=text&tensor=" + url_encode(interleaved_cos_rows());
  a.load_state_query(q);
  EXPECT_EQ(a.notices(), "");
  const std::string d = a.describe();
  EXPECT_NE(d.find("Top cause: layout"), std::string::npos) << d;
  EXPECT_EQ(d.find("Example (built in)"), std::string::npos) << d;
  // The state is a fixed point of save and load (rows joined by "; ").
  App b;
  b.load_state_query(a.state_query());
  EXPECT_EQ(b.state_query(), a.state_query());
  EXPECT_EQ(b.notices(), "");
  // The summary table: a mismatch.
  const posenc::app::ExportData data = a.export_data();
  bool found = false;
  for (const auto& t : data.tables)
    if (t.name == "summary") {
      found = true;
      EXPECT_EQ(t.rows[0][0], 0.0);
    }
  EXPECT_TRUE(found);
}

TEST(CheckView, ErrorsNameTheKey) {
  for (const auto& [query, key] : std::vector<std::pair<std::string, std::string>>{
           {"view=check&source=text", "tensor"},                          // nothing pasted
           {"view=check&source=text&tensor=1%202", "tensor"},             // 1 x 2 is not n x rotary_dim
           {"view=check&source=text&tensor=1%202%3B%203", "tensor"},      // rows of 2 and 1 numbers
           {"view=check&source=file", "source"},                          // no file dropped
           {"view=check&scaling=longrope", "scaling"},                    // factor lists need a model
           {"view=check&kind=rotated&source=text&tensor=1%202", "x"}}) {  // rotated needs x
    App a;
    std::string field, message;
    EXPECT_FALSE(a.load_state_query_strict(query, field, message)) << query;
    EXPECT_EQ(field, key) << query << " -> " << message;
  }
  // A character no text form holds is refused as a value, naming the key; a token made of characters the
  // forms hold (nan, inf) that is no number is kept (a half-typed tensor round-trips) and the reader's error
  // names the key and the token.
  App a;
  std::string field, message;
  EXPECT_FALSE(a.load_state_query_strict("view=check&tensor=1%20zz", field, message));
  EXPECT_EQ(field, "tensor") << message;
  App b;
  EXPECT_FALSE(b.load_state_query_strict("view=check&source=text&tensor=1%20nana", field, message));
  EXPECT_EQ(field, "tensor") << message;
  EXPECT_NE(message.find("'nana' is not a number"), std::string::npos) << message;
}

// Every text form the tensor readers take is the tensor (docs/cli.md): rows with commas and a '#' comment
// line, JSON arrays as text; the same numbers give the same verdict. A MATCH reads "within tolerance (worst
// element at x of it)"; an edit from a control selects the pasted text (the form's "selects").
TEST(CheckView, EveryTextFormIsReadAndAMatchSaysHowCloseItCame) {
  const std::string rows = "1 1 1 1\n0.5403023058681398 0.99995000041666526 0.5403023058681398 0.99995000041666526";
  const std::string forms[] = {
      rows,
      "# cos, 2 positions\n1, 1, 1, 1\n0.5403023058681398, 0.99995000041666526, "
      "0.5403023058681398, 0.99995000041666526",
      "[[1, 1, 1, 1], [0.5403023058681398, 0.99995000041666526, 0.5403023058681398, 0.99995000041666526]]"};
  for (const std::string& text : forms) {
    App a;
    std::string field, message;
    EXPECT_TRUE(a.load_state_query_strict("view=check&kind=cos&dim=4&source=text&tensor=" + url_encode(text), field, message))
        << text << ": " << field << ": " << message;
    const std::string d = a.describe();
    EXPECT_NE(d.find("Verdict: match, cos tensor 2 x 4, within tolerance (worst element at "), std::string::npos) << d;
    EXPECT_NE(d.find(" of it), float32 rule, at ["), std::string::npos) << d;
  }
  App a;
  a.load_state_query("view=check");
  const std::string form = a.form();
  EXPECT_NE(form.find("\"selects\":{\"source\":\"text\"}"), std::string::npos) << form;
}

TEST(CheckView, RowsSeparatedByLineBreaksAreRowsAndTheDescriptionNamesNoNumber) {
  // setState / a URL value may hold line breaks and tabs in a multi-line text (the tensor): each line a row.
  std::string rows = interleaved_cos_rows();
  for (size_t at = rows.find("; "); at != std::string::npos; at = rows.find("; ")) rows.replace(at, 2, "\n");
  for (size_t at = rows.find(' '); at != std::string::npos; at = rows.find(' ', at + 1)) rows[at] = '\t';
  App a;
  a.load_state_query("view=check&kind=cos&dim=4&source=text&tensor=" + url_encode(rows));
  EXPECT_EQ(a.notices(), "");
  const std::string d = a.describe();
  EXPECT_NE(d.find("Top cause: layout"), std::string::npos) << d;
  EXPECT_NE(d.find("cos tensor 4 x 4"), std::string::npos) << d;
  // The live region's text says the shape and the verdict, never the tensor's numbers.
  char first[32];
  std::snprintf(first, sizeof first, "%.10g", std::cos(1.0));
  EXPECT_EQ(d.find(first), std::string::npos) << d;
  // A line break in a one-line key is still refused, naming the key.
  App b;
  std::string field, message;
  EXPECT_FALSE(b.load_state_query_strict("view=check&base=10000%0A", field, message));
  EXPECT_EQ(field, "base") << message;
  // However short, a tensor is named by its length.
  App c;
  c.load_state_query("view=check&kind=cos&dim=4&source=text&tensor=" + url_encode("1 1 1 1\n0.5 0.25 0.125 0.0625"));
  const std::string dc = c.describe();
  EXPECT_EQ(dc.find("0.5 0.25"), std::string::npos) << dc;  // (the worst element alone is quoted)
  EXPECT_NE(dc.find("characters)"), std::string::npos) << dc;
}
