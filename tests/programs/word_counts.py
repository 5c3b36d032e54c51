"""Text statistics with NumPy string arrays: words split from a paragraph, lengths
and vowel counts by np.char, frequencies by np.unique with counts, a bag-of-words
matrix built with np.searchsorted, and cosine similarity between sentences."""

import os
import sys

import numpy as np

TEXT = """NumPy is the fundamental package for scientific computing in Python. It is a
Python library that provides a multidimensional array object, various derived objects
such as masked arrays and matrices, and an assortment of routines for fast operations
on arrays. At the core of the NumPy package is the ndarray object. Arrays make
operations fast. Python lists are slow for numeric work but arrays are fast."""


def main(out_dir=None):
    sentences = [s.strip() for s in TEXT.replace("\n", " ").split(".") if s.strip()]
    words = np.array(TEXT.replace(".", " ").replace(",", " ").lower().split())
    print("words", words.size, words.dtype, words[:4].tolist())
    lengths = np.char.str_len(words)
    print("mean length %.4f longest %s" % (lengths.mean(), words[np.argmax(lengths)]))
    vowels = sum(np.char.count(words, v) for v in "aeiou")
    print("vowel ratio %.4f" % (vowels.sum() / lengths.sum()))

    vocab, counts = np.unique(words, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:5]
    print("top words", list(zip(vocab[order].tolist(), counts[order].tolist())))
    capital = np.char.capitalize(vocab[:3])
    print("capitalized", capital.tolist(), np.char.startswith(vocab, "a").sum())

    bag = np.zeros((len(sentences), vocab.size))
    for i, sentence in enumerate(sentences):
        tokens = np.array(sentence.replace(",", " ").lower().split())
        np.add.at(bag[i], np.searchsorted(vocab, tokens), 1.0)
    norms = np.linalg.norm(bag, axis=1, keepdims=True)
    similarity = (bag / norms) @ (bag / norms).T
    np.fill_diagonal(similarity, 0.0)
    i, j = np.unravel_index(np.argmax(similarity), similarity.shape)
    print("most similar sentences", int(i), int(j), "cosine %.6f" % similarity[i, j])
    if out_dir:
        np.save(os.path.join(out_dir, "word_counts.npy"), similarity)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
