package org.loommpm.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CookieParserTest {
    private static List<Cookie> parse(String header) {
        return CookieParser.parse(header, CookieParser.DEFAULT_MAX_COOKIES);
    }

    @Test
    void readsPairsInOrderWithRepeatedNames() {
        assertEquals(List.of(new Cookie("a", "1"), new Cookie("b", "two"), new Cookie("a", "3")),
                parse("a=1; b=two; a=3"));
    }

    @Test
    void noneForNullOrEmpty() {
        assertEquals(List.of(), parse(null));
        assertEquals(List.of(), parse(""));
        assertEquals(List.of(), parse(" ; ;;"));
    }

    @Test
    void whitespaceAroundPairsNamesAndValuesIsIgnored() {
        assertEquals(List.of(new Cookie("a", "1"), new Cookie("b", "2 3")), parse("  a = 1 ;\tb=2 3\t;"));
    }

    @Test
    void quotesAroundAValueAreRemovedOnlyAsAPair() {
        assertEquals(List.of(new Cookie("a", "x y"), new Cookie("b", "\"c"), new Cookie("d", "")),
                parse("a=\"x y\"; b=\"c; d=\"\""));
    }

    @Test
    void anEmptyValueAndEqualsSignsInTheValueAreKept() {
        assertEquals(List.of(new Cookie("a", ""), new Cookie("b", "c=d==")), parse("a=; b=c=d=="));
    }

    @Test
    void malformedPairsAreSkippedAndTheRestKept() {
        // no '=', an empty name, a control character in the name or the value
        assertEquals(List.of(new Cookie("ok", "1"), new Cookie("fine", "2")),
                parse("bare; =v; ok=1; n\u0001=x; v=a\u0000b; fine=2; x=\u007f"));
    }

    @Test
    void namesOutsideTheTokenGrammarAreKeptAsBrowsersSendThem() {
        assertEquals(List.of(new Cookie("a b", "1"), new Cookie("[x]", "{\"j\":1}")), parse("a b=1; [x]={\"j\":1}"));
    }

    @Test
    void exactlyTheLimitIsAcceptedOneMoreIs431() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            sb.append("c").append(i).append("=v; ");
        }
        assertEquals(5, CookieParser.parse(sb.toString(), 5).size());
        CookieException e = assertThrows(CookieException.class, () -> CookieParser.parse(sb + "x=y", 5));
        assertEquals(431, e.status());
        assertTrue(e.getMessage().startsWith("LM2750 "), e.getMessage());
        // skipped pairs do not count
        assertEquals(5, CookieParser.parse(sb + "junk; =no", 5).size());
    }

    @Test
    void aNonPositiveLimitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CookieParser.parse("a=b", 0));
    }
}
