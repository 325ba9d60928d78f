// The tokenizer against the Hugging Face tokenizers library (through DJL) on the corpus and on text chosen to reach every rule.
package dev.loopjit.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WordPieceTokenizerTest {
  /** Text that reaches each normalisation and splitting rule: accents, CJK, punctuation, symbols, controls, odd spaces, long and unknown words. */
  static final List<String> TRICKY = List.of("", " ", "Hello, World!", "naïve café résumé ÅNGSTRÖM", "İstanbul ΣΊΣΥΦΟΣ straße", "北京欢迎你 and 東京",
      "price: $3.50 (approx.) — 20% off… «quoted» “curly” ‘single’", "tab\there\nnew line\r\nand\u00a0nbsp\u2003em\u3000ideo",
      "control\u0000chars\u0007and\u200bzero\ufeffwidth\ufffd", "emoji 😀 👍🏽 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "supercalifragilisticexpialidocious antidisestablishmentarianism",
      "x".repeat(101) + " " + "y".repeat(100), "e-mail: someone@example.com; url: https://example.org/a_b?c=d&e=f#g",
      "C++ and C# and F#; 3.14159 × 2 ≈ 6.28", "Ünïcödé ñ ç ø ł đ ß æ œ", "Déjà vu — the ‘naïve’ coöperation", "الكتاب Кириллица עברית हिन्दी ไทย",
      "a  b   c", "!!!???...", "[CLS] [SEP] [UNK] [MASK]", "x[MASK]y [PAD][SEP]z [cls] [MASK");

  private static HuggingFaceTokenizer reference;
  private static WordPieceTokenizer tokenizer;

  @BeforeAll
  static void load(@TempDir Path dir) throws IOException {
    Path json = dir.resolve("tokenizer.json");
    try (InputStream in = SentenceEncoder.class.getResourceAsStream(SentenceEncoder.MINILM_TOKENIZER)) {
      Files.copy(in, json);
    }
    reference = HuggingFaceTokenizer.newInstance(json, Map.of("padding", "false", "truncation", "true", "maxLength", "256"));
    tokenizer = SentenceEncoder.miniLmTokenizer();
  }

  @AfterAll
  static void close() {
    reference.close();
  }

  private static void sameIds(String text) {
    int[] expected = Arrays.stream(reference.encode(text).getIds()).mapToInt(Math::toIntExact).toArray();
    assertArrayEquals(expected, tokenizer.encode(text, 256), () -> "tokens of \"" + text + "\": " + tokenizer.tokens(text));
  }

  @Test
  void everyCorpusSentenceTokenizesAsHuggingFaceDoes() throws IOException {
    List<String> corpus = Corpus.sentences();
    assertTrue(corpus.size() >= 1000, corpus.size() + " sentences");
    for (String s : corpus) sameIds(s);
  }

  @Test
  void trickyTextTokenizesAsHuggingFaceDoes() {
    for (String s : TRICKY) sameIds(s);
  }

  @Test
  void longTextIsCutAtTheLimitWithSepLast() {
    String text = "word ".repeat(400);
    sameIds(text);
    int[] ids = tokenizer.encode(text, 256);
    assertEquals(256, ids.length);
    assertEquals(101, ids[0]);
    assertEquals(102, ids[255]);
  }

  @Test
  void piecesAreShownAsTheVocabularySpellsThem() {
    for (String text : List.of("The unaffable FOX!", "naïve café", "supercalifragilisticexpialidocious")) {
      List<String> expected = Arrays.asList(reference.encode(text).getTokens());
      assertEquals(expected.subList(1, expected.size() - 1), tokenizer.tokens(text), text);
    }
  }

  @Test
  void aTokenizerJsonOfAnotherKindIsRefusedNamingWhatDiffers() {
    String bpe = "{\"model\": {\"type\": \"BPE\", \"vocab\": {}}}";
    var e = assertThrows(IllegalArgumentException.class,
        () -> WordPieceTokenizer.read(new ByteArrayInputStream(bpe.getBytes(StandardCharsets.UTF_8)), "bpe.json"));
    assertTrue(e.getMessage().contains("BPE"), e.getMessage());
    var notJson = assertThrows(IllegalArgumentException.class,
        () -> WordPieceTokenizer.read(new ByteArrayInputStream("{\"model\": [".getBytes(StandardCharsets.UTF_8)), "broken.json"));
    assertTrue(notJson.getMessage().startsWith("broken.json"), notJson.getMessage());
    assertThrows(IllegalArgumentException.class, () -> tokenizer.encode("x", 1));
    assertTrue(new ArrayList<>(TRICKY).size() > 10);
  }
}
