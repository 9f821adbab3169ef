// The hand-over page sends its form to the gateway at once; its button stays for browsers without scripts.
'use strict';
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('handover');
  if (form) form.submit();
});
