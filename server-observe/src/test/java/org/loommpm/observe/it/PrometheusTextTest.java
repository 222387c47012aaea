package org.loommpm.observe.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The checker used on the server's exposition rejects what the format forbids. */
class PrometheusTextTest {
    @Test
    void acceptsAWellFormedExposition() {
        String ok = """
                # HELP a_total Things.\\nMore.
                # TYPE a_total counter
                a_total{x="1",y="q\\"\\\\\\n"} 3.0
                a_total{x="2"} +Inf
                # TYPE d summary
                d_count 2.0
                d_sum 0.5 1700000000000
                d{quantile="0.5"} NaN
                """;
        assertEquals(5, PrometheusText.parse(ok).size());
    }

    @Test
    void rejectsWhatTheFormatForbids() {
        String[] bad = {
            "a 1",                                        // no final line feed
            "1a 1\n",                                     // metric name
            "a{x=1} 1\n",                                 // unquoted label value
            "a{x=\"\\t\"} 1\n",                           // escape other than \\ \" \n
            "a{__x=\"1\"} 1\n",                           // reserved label name
            "a{x=\"1\",x=\"2\"} 1\n",                     // duplicate label
            "a 1\na 2\n",                                 // duplicate series
            "a 1\nb 1\na{x=\"1\"} 1\n",                   // family not contiguous
            "a 1\n# TYPE a counter\n",                    // TYPE after samples
            "# TYPE a counter\n# TYPE a counter\na 1\n",  // second TYPE
            "# TYPE a countr\na 1\n",                     // unknown type
            "a one\n",                                    // value
            "a 1 2 3\n",                                  // trailing text
            "# TYPE h histogram\nh_bucket 1\n",           // bucket without le
            "# HELP a bad \\t escape\na 1\n",             // HELP escape
        };
        for (String b : bad) {
            assertThrows(AssertionError.class, () -> PrometheusText.parse(b), b);
        }
    }
}
