"""What goes through the register: finding it, rebuilding it, numbering and the checks of ``validar``
(:mod:`.service`, reincidência: :mod:`.history`, small-scale industry: :mod:`.small_scale`), one act's documents
previewed and issued (:mod:`.preview`), the web's accounts (:mod:`.accounts`) and legal review (:mod:`.review`)."""
