"""Digital signatures of the generated PDFs (PAdES, with pyHanko): signing with an A1 certificate file or an A3
token (PKCS#11), and validating the signatures a PDF carries. Beside render/ and store/: it neither renders nor
stores, and the legal core never imports it."""
