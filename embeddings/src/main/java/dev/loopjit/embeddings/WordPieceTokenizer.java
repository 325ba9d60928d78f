// BERT's tokenizer from a Hugging Face tokenizer.json: clean, split CJK, strip accents, lower-case, split at spaces and punctuation, WordPiece.
package dev.loopjit.embeddings;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A WordPiece tokenizer configured by a Hugging Face {@code tokenizer.json} whose model is
 * {@code WordPiece}, normalizer {@code BertNormalizer}, pre-tokenizer {@code BertPreTokenizer}, and
 * post-processor {@code [CLS] $A [SEP]}, as BERT-family sentence encoders ship. It follows the
 * Hugging Face {@code tokenizers} library's rules (tested against it on real text): control
 * characters removed and white space made a space; each CJK ideograph its own word; accents
 * stripped (NFD, combining marks dropped) when the normalizer lower-cases and does not say
 * otherwise; lower case; words split at white space and around each punctuation character; each
 * word split greedily into the longest vocabulary pieces ({@code ##} marks a continuation), or
 * {@code [UNK]} when that fails or the word has more than 100 characters.
 */
public final class WordPieceTokenizer {
  private final Map<String, Integer> vocabulary = new HashMap<>();
  /** Tokens matched in the raw text before anything else ([CLS], [SEP], [MASK], …), longest first. */
  private final List<Map.Entry<String, Integer>> added = new ArrayList<>();
  private final int unknown, first, last, maxWordChars;
  private final String continuation;
  private final boolean clean, chinese, stripAccents, lowercase;

  private WordPieceTokenizer(JsonObject json, String source) {
    JsonObject model = object(json, "model", source);
    if (!"WordPiece".equals(string(model, "type", source)))
      throw new IllegalArgumentException(source + ": the tokenizer's model is " + string(model, "type", source) + ", not WordPiece");
    for (Map.Entry<String, JsonElement> e : object(model, "vocab", source).entrySet()) vocabulary.put(e.getKey(), e.getValue().getAsInt());
    unknown = id(string(model, "unk_token", source), source);
    continuation = model.has("continuing_subword_prefix") ? model.get("continuing_subword_prefix").getAsString() : "##";
    maxWordChars = model.has("max_input_chars_per_word") ? model.get("max_input_chars_per_word").getAsInt() : 100;
    JsonObject normalizer = object(json, "normalizer", source);
    if (!"BertNormalizer".equals(string(normalizer, "type", source)))
      throw new IllegalArgumentException(source + ": the normalizer is " + string(normalizer, "type", source) + ", not BertNormalizer");
    clean = flag(normalizer, "clean_text", true);
    chinese = flag(normalizer, "handle_chinese_chars", true);
    lowercase = flag(normalizer, "lowercase", true);
    stripAccents = normalizer.has("strip_accents") && !normalizer.get("strip_accents").isJsonNull() ? normalizer.get("strip_accents").getAsBoolean()
        : lowercase;
    if (!"BertPreTokenizer".equals(string(object(json, "pre_tokenizer", source), "type", source)))
      throw new IllegalArgumentException(source + ": the pre-tokenizer is not BertPreTokenizer");
    if (json.has("added_tokens") && json.get("added_tokens").isJsonArray())
      for (JsonElement e : json.getAsJsonArray("added_tokens")) {
        JsonObject t = e.getAsJsonObject();
        String content = string(t, "content", source);
        if (flag(t, "normalized", false) || flag(t, "lstrip", false) || flag(t, "rstrip", false) || flag(t, "single_word", false))
          throw new IllegalArgumentException(source + ": added token " + content + " asks for matching after normalisation or with stripping, which "
              + "LoopJIT's tokenizer does not do");
        added.add(Map.entry(content, t.get("id").getAsInt()));
      }
    added.sort((a, b) -> b.getKey().length() - a.getKey().length());
    first = id("[CLS]", source);
    last = id("[SEP]", source);
  }

  /** Reads {@code tokenizer.json}; {@code source} names it in errors. */
  public static WordPieceTokenizer read(InputStream in, String source) throws IOException {
    JsonElement json;
    try (var reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      json = JsonParser.parseReader(reader);
    } catch (com.google.gson.JsonParseException e) {
      throw new IllegalArgumentException(source + " is not JSON: " + e.getMessage(), e);
    }
    if (!json.isJsonObject()) throw new IllegalArgumentException(source + " is not a tokenizer.json object");
    return new WordPieceTokenizer(json.getAsJsonObject(), source);
  }

  /** The token ids of {@code text}: {@code [CLS]}, its first {@code maxTokens - 2} pieces, {@code [SEP]}. */
  public int[] encode(String text, int maxTokens) {
    if (maxTokens < 2) throw new IllegalArgumentException("a sequence needs room for [CLS] and [SEP]: maxTokens " + maxTokens);
    List<Integer> ids = new ArrayList<>();
    ids.add(first);
    int from = 0;
    while (from <= text.length() && ids.size() < maxTokens - 1) {
      // The next added token in the raw text (leftmost, then longest), and the plain text before it.
      int at = text.length();
      Map.Entry<String, Integer> token = null;
      for (Map.Entry<String, Integer> a : added) {
        int i = text.indexOf(a.getKey(), from);
        if (i >= 0 && i < at) {
          at = i;
          token = a;
        }
      }
      for (String word : words(normalize(text.substring(from, at)))) {
        if (ids.size() >= maxTokens - 1) break;
        pieces(word, ids);
      }
      if (token == null) break;
      ids.add(token.getValue());
      from = at + token.getKey().length();
    }
    int n = Math.min(ids.size(), maxTokens - 1);
    int[] out = new int[n + 1];
    for (int i = 0; i < n; i++) out[i] = ids.get(i);
    out[n] = last;
    return out;
  }

  /** The pieces of {@code text} as strings, without [CLS] and [SEP]: for showing a student what the model sees. */
  public List<String> tokens(String text) {
    Map<Integer, String> byId = new HashMap<>();
    for (var e : vocabulary.entrySet()) byId.put(e.getValue(), e.getKey());
    List<String> out = new ArrayList<>();
    int[] ids = encode(text, Integer.MAX_VALUE);
    for (int i = 1; i < ids.length - 1; i++) out.add(byId.get(ids[i]));
    return out;
  }

  /** The vocabulary's size. */
  public int vocabularySize() {
    return vocabulary.size();
  }

  String normalize(String text) {
    StringBuilder s = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      if (clean && (c == 0 || c == 0xFFFD || isControl(c))) return;
      if (clean && isWhitespace(c)) s.append(' ');
      else if (chinese && isCjk(c)) s.append(' ').appendCodePoint(c).append(' ');
      else s.appendCodePoint(c);
    });
    String out = s.toString();
    if (stripAccents) {
      StringBuilder t = new StringBuilder(out.length());
      Normalizer.normalize(out, Normalizer.Form.NFD).codePoints().filter(c -> Character.getType(c) != Character.NON_SPACING_MARK)
          .forEach(t::appendCodePoint);
      out = t.toString();
    }
    if (lowercase) {
      StringBuilder t = new StringBuilder(out.length());
      // Each code point on its own (no context-dependent final sigma); İ's full mapping is i + combining dot above.
      out.codePoints().forEach(c -> {
        if (c == 0x130) t.append("i\u0307");
        else t.appendCodePoint(Character.toLowerCase(c));
      });
      out = t.toString();
    }
    return out;
  }

  /** Words: runs between white space, each punctuation character a word of its own. */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    text.codePoints().forEach(c -> {
      if (isWhitespace(c) || isPunctuation(c)) {
        if (!word.isEmpty()) words.add(word.toString());
        word.setLength(0);
        if (isPunctuation(c)) words.add(Character.toString(c));
      } else word.appendCodePoint(c);
    });
    if (!word.isEmpty()) words.add(word.toString());
    return words;
  }

  private void pieces(String word, List<Integer> ids) {
    if (word.codePointCount(0, word.length()) > maxWordChars) {
      ids.add(unknown);
      return;
    }
    List<Integer> found = new ArrayList<>();
    int start = 0;
    while (start < word.length()) {
      int end = word.length();
      Integer id = null;
      while (end > start) {
        String piece = (start > 0 ? continuation : "") + word.substring(start, end);
        id = vocabulary.get(piece);
        if (id != null) break;
        end = word.offsetByCodePoints(end, -1);
      }
      if (id == null) {
        ids.add(unknown);
        return;
      }
      found.add(id);
      start = end;
    }
    ids.addAll(found);
  }

  /** Unicode's White_Space property (Rust's char::is_whitespace, which the tokenizers library uses). */
  static boolean isWhitespace(int c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028
        || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
  }

  /** A control character: general category C (other), except tab, line feed and carriage return. */
  static boolean isControl(int c) {
    if (c == '\t' || c == '\n' || c == '\r') return false;
    int t = Character.getType(c);
    return t == Character.CONTROL || t == Character.FORMAT || t == Character.SURROGATE || t == Character.PRIVATE_USE || t == Character.UNASSIGNED;
  }

  /** ASCII punctuation (symbols such as $ and + included, as BERT counts them) or Unicode general category P. */
  static boolean isPunctuation(int c) {
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
    int t = Character.getType(c);
    return t == Character.CONNECTOR_PUNCTUATION || t == Character.DASH_PUNCTUATION || t == Character.START_PUNCTUATION
        || t == Character.END_PUNCTUATION || t == Character.INITIAL_QUOTE_PUNCTUATION || t == Character.FINAL_QUOTE_PUNCTUATION
        || t == Character.OTHER_PUNCTUATION;
  }

  /** The CJK Unified Ideographs blocks BERT pads with spaces. */
  static boolean isCjk(int c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F)
        || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
  }

  private int id(String token, String source) {
    Integer id = vocabulary.get(token);
    if (id == null) throw new IllegalArgumentException(source + ": the vocabulary has no " + token);
    return id;
  }

  private static JsonObject object(JsonObject o, String key, String source) {
    if (!o.has(key) || !o.get(key).isJsonObject()) throw new IllegalArgumentException(source + ": no \"" + key + "\" object");
    return o.getAsJsonObject(key);
  }

  private static String string(JsonObject o, String key, String source) {
    if (!o.has(key) || !o.get(key).isJsonPrimitive()) throw new IllegalArgumentException(source + ": no \"" + key + "\" string");
    return o.get(key).getAsString();
  }

  private static boolean flag(JsonObject o, String key, boolean absent) {
    return o.has(key) && !o.get(key).isJsonNull() ? o.get(key).getAsBoolean() : absent;
  }
}
