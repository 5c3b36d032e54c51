"""A scikit-learn workflow on data prepared with NumPy: features engineered with
NumPy (polynomial terms, a log transform, standardization checked by hand), a
Pipeline of StandardScaler and LogisticRegression evaluated by cross-validation, and
a ridge regression compared with the closed-form NumPy solution."""

import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import cross_val_score, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def main(out_dir=None):
    rng = np.random.default_rng(21)
    n = 400
    x1 = rng.normal(0.0, 1.0, n)
    x2 = rng.exponential(2.0, n)
    X = np.column_stack([x1, np.log1p(x2), x1 * x2, x1 ** 2])
    logits = 1.5 * x1 - 0.8 * np.log1p(x2) + 0.3 * x1 ** 2
    y = (logits + rng.logistic(0.0, 1.0, n) > 0).astype(np.int64)
    print("features", X.shape, "positives", int(y.sum()))

    scaled = StandardScaler().fit_transform(X)
    by_hand = (X - X.mean(axis=0)) / X.std(axis=0)
    print("scaler matches NumPy:", bool(np.allclose(scaled, by_hand)))

    model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0))
    scores = cross_val_score(model, X, y, cv=5)
    print("cv accuracy", np.round(scores, 4).tolist(), "mean %.4f" % scores.mean())
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    model.fit(X_train, y_train)
    proba = model.predict_proba(X_test)[:, 1]
    print("test accuracy %.4f" % np.mean((proba > 0.5) == y_test),
          "coef", np.round(model[-1].coef_.ravel(), 4).tolist())

    target = X @ np.array([0.5, -1.0, 0.25, 2.0]) + rng.normal(0.0, 0.1, n)
    ridge = Ridge(alpha=2.0, fit_intercept=False).fit(X, target)
    closed = np.linalg.solve(X.T @ X + 2.0 * np.eye(X.shape[1]), X.T @ target)
    print("ridge vs closed form:", bool(np.allclose(ridge.coef_, closed)),
          np.round(closed, 5).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "sklearn_pipeline.npy"),
                np.concatenate([scores, proba, closed]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
